/// A command-level failure with a message that says what to do.
enum CLIError: Error, CustomStringConvertible {
    /// The thing asked for is not in the store.
    case notFound(String)

    var description: String {
        switch self {
        case .notFound(let s): s
        }
    }
}
