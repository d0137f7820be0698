/// Why a test server could not be started or used.
public struct TestServerError: Error, CustomStringConvertible {
    /// What failed and what to do.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
