import ArgumentParser
import Foundation
import MailStore

/// `mailstore actions`: pending and failed actions.
struct ActionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions",
        abstract: "List thread actions not yet on the server, or (--failed) those the server refused or that wait for a retry.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The account (default: every account).", valueName: "name")) var account: String?
    @Flag(help: "Only actions with a refused or failed part.") var failed = false
    @Flag(help: "JSON Lines.") var json = false

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            if let account { try AccountCheck.require(account, in: store) }
            // Every account: those configured and those only mail names (an import's `local`), whose actions are pending
            // too; not those removed now (named, they are read).
            let configured = try store.accounts().map(\.name)
            let accounts = try account.map { [$0] } ?? configured + store.unifiedAccountNames().filter { !configured.contains($0) }
            var rows: [ActionRecord] = []
            for a in accounts { rows += failed ? try store.failedActions(account: a) : try store.pendingActions(account: a) }
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for r in rows { print(JSONText.string(try e.encode(Row(r)))) }
                return
            }
            if rows.isEmpty { return Terminal.note(failed ? "(no failed actions)" : "(no pending actions)") }
            for r in rows { print(ActionsCommand.line(r)) }
        }
    }

    /// One action as a line of text (its retry time `now (recorded TIME, ahead of this clock)` when it lies more than an
    /// hour ahead, ``RecordedTime``: a write-back takes it now). An action with nothing pending has no retry to show: the
    /// time its last failure recorded is past use (a move given up after failed attempts showed "retry at" one).
    static func line(_ r: ActionRecord) -> String {
        let counts = "\(r.pending.count) pending, \(r.applied.count) applied, \(r.rejected.count) refused"
        let retry = r.pending.isEmpty ? nil : r.retryAt
        return "\(r.id)  \(r.kind.rawValue)  \(r.state)  threads \(r.threadIDs.joined(separator: ","))  (\(counts))"
            + (r.lastError.map { "  reason: \($0)" } ?? "") + (retry.map { "  retry " + RecordedTime.at($0) } ?? "")
    }

    /// The JSON form of an action.
    struct Row: Encodable {
        var id: String, account: String, kind: String, state: String, threads: [String]
        var pending: [String], applied: [String], refused: [String], reason: String?, destination: String?
        init(_ r: ActionRecord) {
            id = r.id.description; account = r.account; kind = r.kind.rawValue; state = r.state; threads = r.threadIDs
            pending = r.pending; applied = r.applied; refused = r.rejected; reason = r.lastError; destination = r.destination
        }
    }
}
