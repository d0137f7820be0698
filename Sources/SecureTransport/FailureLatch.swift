/// The first error that made a protocol connection unusable: once it is recorded the connection is
/// closed, and every later call throws that same error.
package struct FailureLatch<Failure: Error> {
    /// The recorded error, nil while the connection is usable.
    package private(set) var error: Failure?

    /// A latch with nothing recorded.
    package init() {}

    /// Throws the recorded error, if any.
    package func check() throws(Failure) {
        if let error { throw error }
    }

    /// Records `error` unless an error is recorded already, closing `connection` then; returns the
    /// recorded error, to throw.
    package mutating func record(_ error: Failure, closing connection: SecureConnection) -> Failure {
        if let recorded = self.error { return recorded }
        self.error = error
        connection.close()
        return error
    }
}
