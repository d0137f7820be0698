import ArgumentParser
import MailStore

/// What `outbox send` tells of each message it tried, and its summary and exit status: a line per message as its
/// attempt ends (a failure with its recorded reason, sanitised and bounded), a line per due message left waiting for
/// its account's server (`OutboxPause`), then how many were sent, failed, still queued or waiting, and exit 5 when any
/// was not sent.
struct OutboxSendTally {
    /// The messages told so far.
    private(set) var told: Set<String> = []
    private var sent = 0, failed = 0, queued = 0, waiting = 0

    /// Says that `ids`, due, were not tried: `account` is paused for its server (`pause`). A line each on stdout, and
    /// once on stderr why and what to do.
    mutating func tell(waiting ids: [String], for pause: OutboxPause, account: String) {
        for id in ids where !told.contains(id) {
            told.insert(id)
            waiting += 1
            print("\(id)  waiting: the server did not serve the account's last attempt; tried again from \(pause.until.iso8601)")
        }
        Terminal.warning("account \(account): the server did not serve \(pause.draftID) at \(pause.at.iso8601) (\(pause.reason)); "
            + "\(Counted.of(ids.count, "due message")) wait until \(pause.until.iso8601), when \(pause.draftID) is tried first "
            + "(`mailstore outbox retry DRAFT` sends one now)")
    }

    /// Says how the attempt to send `id` ended, on stdout.
    mutating func tell(_ id: String, _ state: OutboxItem.State, store: MailStore) {
        told.insert(id)
        let item = try? store.outboxItem(draftID: id)
        switch state {
        case .sent:
            sent += 1
            print("\(id)  sent")
        case .failed:
            failed += 1
            let reason = item?.reason ?? "no reason recorded"
            Terminal.print(Terminal.bounded("\(id)  failed: \(reason)"))
        case .queued:
            queued += 1
            let due = item?.dueAt.map { "; due again at \($0.iso8601)" } ?? ""
            print("\(id)  queued: the server could not be reached, nothing was sent\(due)")
        case .draft, .sending:
            print("\(id)  \(state)")
        }
    }

    /// The summary (when a message was tried), and exit 5 (server error) when any was not sent.
    func finish() throws {
        guard !told.isEmpty else { return }
        print("outbox send: \(sent) sent, \(failed) failed, \(queued) still queued" + (waiting > 0 ? ", \(waiting) waiting for the server" : ""))
        guard failed + queued + waiting > 0 else { return }
        Terminal.error("\(Counted.of(failed + queued + waiting, "message")) not sent; `mailstore outbox` lists each with its reason and next try")
        throw ExitCode(CLIExit.serverError)
    }
}
