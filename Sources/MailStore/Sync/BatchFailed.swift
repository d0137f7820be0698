import IMAPClient

/// A fetch batch the server failed to deliver whole (a literal shorter than it stated then silence, a protocol error,
/// a NO): which batch of the round, its UIDs and those that arrived whole before the failure (already handed over).
struct BatchFailed: Error {
    /// What failed.
    var error: IMAPClientError
    /// The batch's index in the round's plan.
    var index: Int
    /// The batch's UIDs, in the order asked.
    var batch: [UInt32]
    /// The UIDs of the batch that arrived whole.
    var arrived: Set<UInt32>
}
