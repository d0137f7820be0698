/// The status word of an untagged condition response (`* OK`, `* NO`, `* BAD`, `* BYE`, `* PREAUTH`).
package enum UntaggedCondition: String, Hashable, Sendable, CaseIterable {
    /// Information, a greeting, or a response code such as `[UIDNEXT n]`.
    case ok = "OK"
    /// A warning.
    case no = "NO"
    /// A protocol-level error not tied to one command.
    case bad = "BAD"
    /// The server is closing the connection.
    case bye = "BYE"
    /// Greeting of a connection that is already authenticated.
    case preauth = "PREAUTH"
}
