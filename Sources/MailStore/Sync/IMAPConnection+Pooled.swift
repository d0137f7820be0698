import IMAPClient

extension IMAPConnection: PooledConnection {
    /// `NOOP` answered: the server still holds the session.
    package func probe() -> Bool {
        (try? noop()) != nil
    }

    /// `LOGOUT` when still usable, then closed.
    package func close() {
        logout()
    }
}
