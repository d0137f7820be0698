/// What failed in the search index, and what to do about it.
package enum SearchIndexError: Error, CustomStringConvertible, Sendable {
    /// A SQLite call failed.
    case sqlite(call: String, code: Int32, message: String)
    /// A file or folder operation failed.
    case io(String, String)
    /// The index file was written by another schema version (the caller rebuilds it).
    case schemaMismatch(found: Int, expected: Int)
    /// A query the parser accepted could not be run.
    case query(String)

    package var description: String {
        switch self {
        case .sqlite(let call, let code, let message):
            "search index: SQLite \(call) failed (\(code): \(message)); `mailstore replay` rebuilds the index from the log"
        case .io(let path, let why): "search index: \(path): \(why)"
        case .schemaMismatch(let found, let expected):
            "search index: schema version \(found), this build writes \(expected); it is rebuilt from the log"
        case .query(let why): "search: \(why)"
        }
    }
}
