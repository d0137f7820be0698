/// An environment's data file is not what its own header says it should be: opening it as it is would
/// crash the process (a read of a page past the end of a mapped file is a SIGBUS), so it is refused.
public enum DataFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `file` is `size` bytes, but its newest committed meta page says the data reaches byte `expected`:
    /// the file was cut short (a copy or restore interrupted, a full disk while copying, a damaged disk).
    case truncated(file: String, size: Int, expected: Int)
    /// `file` is `size` bytes, too short to hold LMDB's two meta pages (an empty file included).
    case noHeader(file: String, size: Int)

    /// What was found, without what to do about it (a caller that acts itself, rebuilding the views, says what it does).
    public var finding: String {
        switch self {
        case .truncated(let file, let size, let expected):
            return "\(file) is truncated: it is \(size) bytes but its last committed transaction reaches byte \(expected)"
        case .noHeader(let file, let size):
            return "\(file) is truncated: it is \(size) bytes, too short for a database header"
        }
    }

    public var description: String {
        switch self {
        case .truncated(let file, let size, let expected):
            return "\(file) is truncated: it is \(size) bytes but its last committed transaction reaches byte \(expected) "
                + "(the file was cut short: an interrupted copy or restore, or a damaged disk). It was not opened and "
                + "nothing was changed; restore this folder from a backup"
        case .noHeader(let file, let size):
            return "\(file) is truncated: it is \(size) bytes, too short for a database header (the file was cut short). "
                + "It was not opened and nothing was changed; restore this folder from a backup"
        }
    }
}
