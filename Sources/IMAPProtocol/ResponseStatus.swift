/// The result of a tagged response.
package enum ResponseStatus: String, Hashable, Sendable, CaseIterable {
    /// The command succeeded.
    case ok = "OK"
    /// The command failed for an operational reason (the mailbox does not exist, quota, ...).
    case no = "NO"
    /// The command was not understood or not allowed in this state.
    case bad = "BAD"
}
