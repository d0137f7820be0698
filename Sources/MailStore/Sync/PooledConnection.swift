/// A server connection a ``ConnectionPool`` can hand out, keep idle and close.
package protocol PooledConnection: AnyObject {
    /// Whether the connection can still carry commands (no error has made it unusable).
    var isUsable: Bool { get }
    /// Checks, before a connection that sat idle is handed out again, that the server still answers (an IMAP
    /// NOOP); false: the pool closes it and opens another.
    func probe() -> Bool
    /// Closes the connection (politely when it is still usable); never throws.
    func close()
}
