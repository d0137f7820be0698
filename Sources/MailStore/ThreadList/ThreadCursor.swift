import EventModel

/// An opaque position in a thread list: the last row's date and thread id.
///
/// The client spec's cursor is a `Date`, which skips or repeats threads that share a date; this cursor
/// adds the thread id, so it stays exact, and stays valid while new mail arrives (new threads sort before
/// it). Its text form is what the CLI prints and takes (`--cursor`).
public struct ThreadCursor: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The last row's latest date.
    public var latestDate: Timestamp
    /// The last row's thread id.
    public var threadID: String

    /// Creates a cursor after the row (`latestDate`, `threadID`).
    public init(latestDate: Timestamp, threadID: String) {
        self.latestDate = latestDate
        self.threadID = threadID
    }

    /// The text form: `<µs>.<thread id>`.
    public var description: String { "\(latestDate.microseconds).\(threadID)" }

    /// Parses the text form.
    public init?(_ text: String) {
        guard let dot = text.firstIndex(of: "."), let us = Int64(text[..<dot]) else { return nil }
        let id = String(text[text.index(after: dot)...])
        guard !id.isEmpty else { return nil }
        self.init(latestDate: Timestamp(microseconds: us), threadID: id)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
