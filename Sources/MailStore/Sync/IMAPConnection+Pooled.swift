import IMAPClient

extension IMAPConnection: PooledConnection {
    /// `NOOP` answered: the server still holds the session.
    package func probe() -> Bool {
        (try? noop()) != nil
    }

    /// The timeout that ended the connection (its server did not answer a read, or a command, in time,
    /// ``IMAPClientError/isUnanswered``), nil for any other end.
    package var unansweredFailure: (any Error)? {
        endedBy.flatMap { $0.isUnanswered ? $0 : nil }
    }

    /// `LOGOUT` when still usable, then closed.
    package func close() {
        logout()
    }
}
