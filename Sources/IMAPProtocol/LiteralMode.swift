/// How the command encoder sends literals.
package enum LiteralMode: Hashable, Sendable {
    /// `{n}`: the client waits for a `+` continuation before sending the literal's bytes.
    case synchronizing
    /// `{n+}` for every literal (LITERAL+, RFC 7888): the command goes out in one piece.
    case nonSynchronizing
    /// `{n+}` for literals up to 4096 bytes, `{n}` above (LITERAL-, RFC 7888).
    case nonSynchronizingUpTo4096

    /// Whether a literal of `size` bytes is sent without waiting for a continuation.
    func isNonSynchronizing(size: Int) -> Bool {
        switch self {
        case .synchronizing: return false
        case .nonSynchronizing: return true
        case .nonSynchronizingUpTo4096: return size <= 4096
        }
    }
}
