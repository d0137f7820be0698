import EventModel
import Projections

/// The threads projector with a bug injected: it fails on any email whose subject is `boom` (after
/// changing its tables half-way, as a real bug would).
package final class FlakyThreadsProjector: Projector {
    package static let name = ViewName.threads
    package static let schemaVersion = ThreadsProjector.schemaVersion
    let real: ThreadsProjector

    struct Bug: Error, CustomStringConvertible {
        var description: String { "injected bug" }
    }

    package init(context: FoldContext) { real = ThreadsProjector(context: context) }

    package func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        try real.apply(event, decoded)
        if case .emailReceived(let p) = decoded, p.subject == "boom" { throw Bug() }
    }

    package func prepareFlush() throws { try real.prepareFlush() }
    package func discardPending() { real.discardPending() }
}
