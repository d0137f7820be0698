import EventModel
import Projections

/// A projector with a bug injected: it fails on any email whose subject is `boom`, and on any archive into a
/// folder named `boom` (after changing its tables half-way, as a real bug would).
package final class FlakyProjector<Real: Projector>: Projector {
    package static var name: ViewName { Real.name }
    package static var schemaVersion: UInt32 { Real.schemaVersion }
    let real: Real

    struct Bug: Error, CustomStringConvertible {
        var description: String { "injected bug" }
    }

    package init(context: FoldContext) { real = Real(context: context) }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        try real.apply(event, decoded)
        if case .emailReceived(let p) = decoded, p.subject == "boom" { throw Bug() }
        if case .threadArchived(let a) = decoded, a.destination == "boom" { throw Bug() }
    }

    package func prepareFlush() throws { try real.prepareFlush() }
    package func discardPending() { real.discardPending() }
}

/// The threads projector with the injected bug.
package typealias FlakyThreadsProjector = FlakyProjector<ThreadsProjector>
/// The contacts projector (folded on the second core in big batches) with the injected bug.
package typealias FlakyContactsProjector = FlakyProjector<ContactsProjector>
/// The unread projector (folded on the second core for actions over many copies) with the injected bug.
package typealias FlakyUnreadProjector = FlakyProjector<UnreadProjector>
