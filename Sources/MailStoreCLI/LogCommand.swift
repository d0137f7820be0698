import ArgumentParser
import Foundation
import MailStore
import SearchQuery

/// `mailstore log`: the event log, one line per event.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show events: sequence, time, type, actor, stream and a one-line summary.",
        discussion: """
        Filters combine. Times are when the log recorded the event, in UTC; they never go back along the log. \
        TIME is \(TimePoint.forms); --since takes from its start, --until through its end (a whole day for a date). \
        --last N shows the newest N events that pass the filters, oldest first; --follow then keeps showing events \
        as they are appended, until interrupted.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("Only these event types (repeat or comma-separate; e.g. EmailReceived).", valueName: "type"))
    var type: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only events of this stream (e.g. email/<id>).", valueName: "stream"))
    var stream: String?

    @Option(name: .long, help: ArgumentHelp("Only events of this account.", valueName: "account"))
    var account: String?

    @Option(name: .customLong("from-seq"), parsing: .unconditional, help: ArgumentHelp("Start at this sequence number.", valueName: "seq"))
    var fromSeq: UInt64 = 1

    @Option(name: .customLong("to-seq"), parsing: .unconditional, help: ArgumentHelp("End at this sequence number (included).", valueName: "seq"))
    var toSeq: UInt64?

    @Option(name: .long, help: ArgumentHelp("Only events recorded at or after this time (UTC; e.g. 2026-12-03, '2026-12-03 10:00', 2h).", valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only events recorded up to the end of this time (a date: its whole day).", valueName: "time"))
    var until: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Show at most this many events.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Show only the newest n events that pass the filters (oldest first).", valueName: "n"))
    var last: Int?

    @Flag(name: .long, help: "Keep showing events as they are appended, until interrupted.")
    var follow = false

    @Flag(name: .long, help: "Print JSON Lines: one object per event with its full payload.")
    var json = false

    /// How long `--follow` waits between two looks at the log's head.
    static let followInterval = 0.2

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let last, last < 0 { throw ValidationError("--last must be 0 or more") }
        if limit != nil && last != nil { throw ValidationError("give --last or --limit, not both") }
        if fromSeq == 0 { throw ValidationError("--from-seq starts at 1") }
        if let stream, stream.isEmpty {
            throw ValidationError("--stream takes a stream name as `log` shows them (email/ID, thread/ID, folder/ACCOUNT/NAME, ...)")
        }
        if let toSeq, toSeq < fromSeq { throw ValidationError("--to-seq \(toSeq) is before --from-seq \(fromSeq)") }
        if follow && (toSeq != nil || until != nil) { throw ValidationError("--follow shows events as they come: give it no end (--to-seq, --until)") }
        if !type.isEmpty && typeNames.isEmpty { throw ValidationError("--type takes event type names (e.g. EmailReceived,FlagsChanged)") }
        for name in typeNames where EventType(name: name) == nil {
            let known = EventType.catalog.map(\.1).joined(separator: ", ")
            throw ValidationError("unknown event type '\(name)'; known types: \(known)")
        }
    }

    var typeNames: [String] {
        type.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    /// `--since`'s start and `--until`'s end (exclusive), in microseconds since the epoch. Read once the command runs
    /// (a relative time counts back from then): a time that is not one, or a `--since` not before the `--until`, is
    /// one `mailstore: error:` line saying why and what to write, without the usage.
    func times(now: Date) throws -> (since: Int64?, until: Int64?) {
        func point(_ text: String?, _ option: String) throws -> TimePoint? {
            guard let text else { return nil }
            guard let p = TimePoint.parse(text, now: now) else {
                throw ValidationError("\(option): invalid time '\(text)'; use \(TimePoint.forms)")
            }
            return p
        }
        let micro: Int64 = 1_000_000
        let span = (since: try point(since, "--since").map { $0.start * micro }, until: try point(until, "--until").map { $0.end * micro })
        if let a = span.since, let b = span.until, a >= b, let since, let until {
            throw ValidationError("--since \(since) is not before --until \(until): no time is in both; give a --since earlier than the --until")
        }
        return span
    }

    func run() throws {
        try CLIExit.run {
            // The times first: one refused is said before the store is opened.
            let span = try times(now: Date())
            // Opened for lookups (no read-ahead); a long scan turns the kernel's read-ahead on (`readsAhead`).
            let store = try MailStore.open(at: storeOptions.path, readOnly: true, lookups: true)
            let types = typeNames.isEmpty ? nil : Set(typeNames.compactMap { EventType(name: $0) })
            let filter = ScanFilter(types: types, stream: stream.map(StreamName.init(rawValue:)), account: account)
            var out = OutputBuffer()
            var shown = 0
            let width = Terminal.stdoutIsTTY ? Terminal.width : Int.max
            if limit == 0 { return }
            // The sequences the times and --to-seq bound, against the head as it is now.
            var from = fromSeq
            var through = min(try store.head().sequence, toSeq ?? .max)
            if let s = span.since { from = max(from, try store.firstSequence(recordedAtOrAfter: Timestamp(microseconds: s))) }
            if let u = span.until { through = min(through, try store.firstSequence(recordedAtOrAfter: Timestamp(microseconds: u)) - 1) }
            let readAhead = LogCommand.readsAhead(from: from, through: through, limit: limit, last: last,
                                                  filtered: types != nil || account != nil, stream: stream != nil)
            var next = from
            func show(upTo end: UInt64) throws -> Bool {
                var more = true
                if next <= end {
                    try store.scan(from: next, filter: filter) { ev in
                        if ev.envelope.sequence > end { return false }
                        next = ev.envelope.sequence + 1
                        if json {
                            out.write(JSONText.data(try EventJSON.encoder.encode(EventJSON(ev))))
                            out.write("\n")
                        } else {
                            out.write(LogCommand.line(ev, width: width))
                        }
                        shown += 1
                        more = limit.map { shown < $0 } ?? true
                        return more
                    }
                    next = max(next, end + 1)
                }
                out.flush()
                return more
            }
            func first() throws -> Bool {
                if let last { next = try store.startOfLast(last, from: from, through: through, filter: filter) }
                return try show(upTo: through)
            }
            guard try readAhead ? store.log.environment.withUsualReadAhead(first) : first(), follow else { return }
            // Past the head as it was: every event appended from now on, looked for every `followInterval`.
            next = max(next, through + 1)
            while true {
                let head = try store.head().sequence
                if head >= next {
                    guard try show(upTo: head) else { return }
                } else {
                    Thread.sleep(forTimeInterval: LogCommand.followInterval)
                }
            }
        }
    }

    /// The most events a `log` reads without the kernel's read-ahead.
    ///
    /// The log's records lie among its indexes' and blobs' pages, so a fault with read-ahead reads up to
    /// `read_ahead_kb` (8 MiB on this project's test machine) mostly of other data. Measured from a cold cache on
    /// a 1M-message store (2026-12-03): 50 events 0.16-0.21 s without read-ahead against 0.42-0.44 s with it (the
    /// process's own start ~0.16 s), 5,000 0.42 s against 1.18-1.36 s, 20,000 1.10 against 2.41 s, 100,000 4.81
    /// against 5.73 s; the whole log of a 100K store (200,010 events) 7.62 s against 4.87 s with read-ahead.
    static let lookupSpan: UInt64 = 20_000

    /// True when a `log` may read more than `lookupSpan` events, so the kernel's read-ahead pays: the span
    /// `from...through`, bounded by `limit` or `last` where no type or account filter may skip events. One
    /// stream's events (`stream`) are read one by one through the stream index, never ahead.
    static func readsAhead(from: UInt64, through: UInt64, limit: Int?, last: Int?, filtered: Bool, stream: Bool) -> Bool {
        if stream { return false }
        var span = through >= from ? through - from + 1 : 0
        if !filtered, let n = limit ?? last { span = min(span, UInt64(max(n, 0))) }
        return span > lookupSpan
    }

    static func line(_ ev: StoredEvent, width: Int) -> String {
        let e = ev.envelope
        let time = String(e.recordedAt.iso8601.prefix(19)).replacingOccurrences(of: "T", with: " ")
        let summary: String
        do { summary = try ev.decode().summary } catch { summary = "(undecodable: \(error))" }
        var s = TerminalSanitiser.line("\(pad(String(e.sequence), 7, right: true))  \(time)  \(pad(e.type.name, 22))  \(pad(e.actor.description, 6))  \(pad(TerminalSanitiser.line(e.stream), 28))  \(summary)")
        if s.count > width { s = String(s.prefix(max(width - 1, 10))) + "…" }
        return s + "\n"
    }

    static func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        if s.count >= n { return s }
        let p = String(repeating: " ", count: n - s.count)
        return right ? p + s : s + p
    }
}
