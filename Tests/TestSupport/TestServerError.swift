/// Why a test server could not be started or used.
package struct TestServerError: Error, CustomStringConvertible {
    /// What failed and what to do.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
