/// What filing an account's pending sent messages in the server's Sent folder did (``OutboxUseCase/completeSentFilings(account:discover:)``).
public struct SentFilingReport: Sendable, Equatable {
    /// The drafts whose sent message was filed now.
    public var filed: [String] = []
    /// Sent messages still not filed (they wait for a later sync or `outbox send`).
    public var unfiled = 0
    /// Why they are not: the last reason met (no Sent folder on the server, with what to do; or the APPEND's failure).
    public var reason: String?

    public init() {}
}
