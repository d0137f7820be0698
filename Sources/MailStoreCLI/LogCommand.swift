import ArgumentParser
import Foundation
import MailStore

/// `mailstore log`: the event log, one line per event.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show events: sequence, time, type, stream, actor and a one-line summary.",
        discussion: "Filters combine. Times are when the log recorded the event, in UTC.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("Only these event types (repeat or comma-separate; e.g. EmailReceived).", valueName: "type"))
    var type: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only events of this stream (e.g. email/<id>).", valueName: "stream"))
    var stream: String?

    @Option(name: .long, help: ArgumentHelp("Only events of this account.", valueName: "account"))
    var account: String?

    @Option(name: .customLong("from-seq"), help: ArgumentHelp("Start at this sequence number.", valueName: "seq"))
    var fromSeq: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Show at most this many events.", valueName: "n"))
    var limit: Int?

    @Flag(name: .long, help: "Print JSON Lines: one object per event with its full payload.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if fromSeq == 0 { throw ValidationError("--from-seq starts at 1") }
        for name in typeNames where EventType(name: name) == nil {
            let known = EventType.catalog.map(\.1).joined(separator: ", ")
            throw ValidationError("unknown event type '\(name)'; known types: \(known)")
        }
    }

    var typeNames: [String] {
        type.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path, readOnly: true)
            let types = typeNames.isEmpty ? nil : Set(typeNames.compactMap { EventType(name: $0) })
            let filter = ScanFilter(types: types, stream: stream.map(StreamName.init(rawValue:)), account: account)
            var out = OutputBuffer()
            var shown = 0
            let width = Terminal.stdoutIsTTY ? Terminal.width : Int.max
            if limit == 0 { return }
            try store.scan(from: fromSeq, filter: filter) { ev in
                if json {
                    let data = try EventJSON.encoder.encode(EventJSON(ev))
                    out.write(data)
                    out.write("\n")
                } else {
                    out.write(LogCommand.line(ev, width: width))
                }
                shown += 1
                return limit.map { shown < $0 } ?? true
            }
            out.flush()
        }
    }

    static func line(_ ev: StoredEvent, width: Int) -> String {
        let e = ev.envelope
        let time = String(e.recordedAt.iso8601.prefix(19)).replacingOccurrences(of: "T", with: " ")
        let summary: String
        do { summary = try ev.decode().summary } catch { summary = "(undecodable: \(error))" }
        var s = TerminalSanitiser.line("\(pad(String(e.sequence), 7, right: true))  \(time)  \(pad(e.type.name, 22))  \(pad(e.actor.description, 6))  \(pad(e.stream, 28))  \(summary)")
        if s.count > width { s = String(s.prefix(max(width - 1, 10))) + "…" }
        return s + "\n"
    }

    static func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        if s.count >= n { return s }
        let p = String(repeating: " ", count: n - s.count)
        return right ? p + s : s + p
    }
}
