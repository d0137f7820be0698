/// A server connection a ``ConnectionPool`` can hand out, keep idle and close.
package protocol PooledConnection: AnyObject {
    /// Whether the connection can still carry commands (no error has made it unusable).
    var isUsable: Bool { get }
    /// Checks, before a connection that sat idle is handed out again, that the server still answers (an IMAP
    /// NOOP); false: the pool closes it and opens another.
    func probe() -> Bool
    /// Closes the connection (politely when it is still usable); never throws.
    func close()
    /// The error that ended the connection when it was the server not answering within the connection's timeout (a
    /// ``probe()`` unanswered), nil for any other end: the pool then opens no other connection in the same lease, since
    /// one to a server that stopped answering waits as long again (a poll held for twice `--timeout`).
    var unansweredFailure: (any Error)? { get }
}

extension PooledConnection {
    /// None: every failed probe is followed by a new connection.
    package var unansweredFailure: (any Error)? { nil }
}
