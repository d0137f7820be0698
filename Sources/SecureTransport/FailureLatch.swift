/// The first error that made a protocol connection unusable: once it is recorded the connection is
/// closed, and every later call throws that same error.
public struct FailureLatch<Failure: Error> {
    /// The recorded error, nil while the connection is usable.
    public private(set) var error: Failure?

    /// A latch with nothing recorded.
    public init() {}

    /// Throws the recorded error, if any.
    public func check() throws(Failure) {
        if let error { throw error }
    }

    /// Records `error` unless an error is recorded already, closing `connection` then; returns the
    /// recorded error, to throw.
    public mutating func record(_ error: Failure, closing connection: SecureConnection) -> Failure {
        if let recorded = self.error { return recorded }
        self.error = error
        connection.close()
        return error
    }
}
