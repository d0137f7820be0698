/// Why an import could not start or continue. Malformed messages are not errors: they are imported
/// as well as they can be and counted in the summary.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The Maildir folder or mbox file is not there or not readable.
    case sourceNotFound(String, String)
    /// A message file could not be read.
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .sourceNotFound(let p, let why): "cannot read \(p): \(why)"
        case .unreadable(let p, let why): "cannot read message \(p): \(why)"
        }
    }
}
