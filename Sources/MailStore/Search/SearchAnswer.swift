import Foundation

/// A search's rows (`MailStore.searchAnswer`), and whether the search index was behind the log when they were found.
public struct SearchAnswer: Sendable, Equatable {
    /// The rows (each with `SearchResult.indexBehind` set when `indexBehind` is not 0).
    public var rows: [SearchResult]
    /// Events at the log's end the search index had not folded when the query ran (0: none): the mail they bring is
    /// not searched. Not 0 when the index's catch-up stopped at the search's time limit (`catchUpStopped`), or when
    /// the index could not be written and was searched as it stands (a read-only filesystem).
    public var indexBehind: UInt64
    /// True when the search index's catch-up stopped at the search's time limit (what it folded is kept).
    public var catchUpStopped: Bool
    /// The search's time limit in seconds (nil: none).
    public var seconds: Double?

    public init(rows: [SearchResult], indexBehind: UInt64, catchUpStopped: Bool, seconds: Double?) {
        self.rows = rows
        self.indexBehind = indexBehind
        self.catchUpStopped = catchUpStopped
        self.seconds = seconds
    }

    /// What to tell the user when the catch-up stopped at the time limit (nil otherwise): how far the index is behind,
    /// that the rows may miss that mail, and how to finish it.
    public var warning: String? {
        guard catchUpStopped, indexBehind > 0 else { return nil }
        let limit = seconds.map { " (\(SearchAnswer.seconds($0)) s)" } ?? ""
        return "the search index is \(indexBehind) events behind the log: its catch-up stopped at this search's time limit\(limit), "
            + "so the mail those events bring (recently synced or imported) is not searched and may be missing from these results. "
            + "What it indexed is kept, and the next search goes on from there; `mailstore search --build-index` indexes the rest "
            + "with no time limit"
    }

    /// `seconds` as the user wrote it (`0.1`, `30`).
    static func seconds(_ s: Double) -> String { String(format: "%g", s) }
}
