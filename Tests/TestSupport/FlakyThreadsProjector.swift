import EventModel
import Projections

/// The threads projector with a bug injected: it fails on any email whose subject is `boom` (after
/// changing its tables half-way, as a real bug would).
public final class FlakyThreadsProjector: Projector {
    public static let name = ViewName.threads
    public static let schemaVersion = ThreadsProjector.schemaVersion
    let real: ThreadsProjector

    struct Bug: Error, CustomStringConvertible {
        var description: String { "injected bug" }
    }

    public init(context: FoldContext) { real = ThreadsProjector(context: context) }

    public func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        try real.apply(event, decoded)
        if case .emailReceived(let p) = decoded, p.subject == "boom" { throw Bug() }
    }

    public func prepareFlush() throws { try real.prepareFlush() }
    public func discardPending() { real.discardPending() }
}
