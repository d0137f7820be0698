import ArgumentParser
import Foundation
import MailStore

/// `mailstore notifications follow`: posted and withdrawn notifications as they are recorded.
struct NotificationsFollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Stream posted and withdrawn notifications as they are recorded (JSON Lines with --json).",
        discussion: """
        Each posted decision (NotificationDecided, outcome posted) prints a line with "event": "posted" and the \
        content; each NotificationWithdrawn prints one "event": "withdrawn" line per email. Starts at the log's \
        head (--from-start: from the beginning); runs until interrupted.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print JSON Lines.") var json = false
    @Flag(help: "Print what was recorded before starting too.") var fromStart = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many lines (for scripts).", valueName: "N")) var maxLines: Int?

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            var next = fromStart ? 1 : try store.head().sequence + 1
            var printed = 0
            let filter = ScanFilter(types: [.notificationDecided, .notificationWithdrawn])
            while maxLines.map({ printed < $0 }) ?? true {
                try store.scan(from: next, filter: filter) { ev in
                    next = ev.envelope.sequence + 1
                    for line in try lines(ev) {
                        Swift.print(line)
                        printed += 1
                        if let maxLines, printed >= maxLines { return false }
                    }
                    return true
                }
                fflush(nil)
                if maxLines.map({ printed >= $0 }) ?? false { break }
                let head = try store.head().sequence
                if head >= next { continue }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// The lines an event gives.
    func lines(_ ev: StoredEvent) throws -> [String] {
        switch try ev.decode() {
        case .notificationDecided(let d) where d.outcome == .posted:
            let r = NotificationRecord(decision: d, account: ev.envelope.account, position: ev.envelope.sequence)
            let j = NotificationJSON(r, event: "posted")
            return [json ? j.line : "posted \(d.emailID) thread \(d.threadID): " + CategorizeCommand.printable("\(d.readableTitle) - \(d.subtitle)")]
        case .notificationWithdrawn(let w):
            struct Withdrawn: Encodable { var event = "withdrawn"; var emailId: String; var threadId: String; var identifier: String; var reason: String }
            return w.emailIDs.map { id in
                guard json else { return "withdrawn \(id) thread \(w.threadID) (\(w.reason))" }
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let v = Withdrawn(emailId: id, threadId: w.threadID, identifier: "email-\(id)", reason: w.reason)
                return (try? JSONText.string(e.encode(v))) ?? "{}"
            }
        default:
            return []
        }
    }
}
