/// One `OutboxUseCase.deliverDue` round of an account: what its caller is told, and whether the server failed to serve
/// a message (not reachable, or the connection stalled, was lost or ran past the attempt's deadline), which ends the
/// round: the account's other messages would meet the same server, each costing an attempt's wait.
final class DeliveryRound {
    /// Told each message that could not be sent for a reason of its own (its draft gone, no SMTP settings).
    let skipped: ((String, any Error) -> Void)?
    /// Told each message as its attempt ends, with its state then.
    let done: ((String, OutboxItem.State) -> Void)?
    /// Told when the round ends early: the message the server did not serve, and how many due messages were left.
    let stopped: ((String, Int) -> Void)?
    /// Told when the account is paused for its server (its last attempt was not served, its retry time not come): the
    /// pause, and the due messages left waiting for it (none was tried).
    let paused: ((OutboxPause, [String]) -> Void)?
    /// Whether the server failed to serve the last message tried, or the account's configuration kept it from being
    /// sent (its SMTP settings, a credential or sign-in to renew: recorded as the message's failure).
    var serverFailed = false

    init(skipped: ((String, any Error) -> Void)?, done: ((String, OutboxItem.State) -> Void)?, stopped: ((String, Int) -> Void)?,
         paused: ((OutboxPause, [String]) -> Void)? = nil) {
        self.skipped = skipped
        self.done = done
        self.stopped = stopped
        self.paused = paused
    }
}
