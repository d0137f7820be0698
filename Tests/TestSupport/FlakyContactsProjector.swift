import EventModel
import Projections

/// The contacts projector (folded on the second core in big batches) with a bug injected: it fails on any
/// email whose subject is `boom`, after changing its tables half-way.
package final class FlakyContactsProjector: Projector {
    package static let name = ViewName.contacts
    package static let schemaVersion = ContactsProjector.schemaVersion
    let real: ContactsProjector

    struct Bug: Error, CustomStringConvertible {
        var description: String { "injected bug" }
    }

    package init(context: FoldContext) { real = ContactsProjector(context: context) }

    package func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        try real.apply(event, decoded)
        if case .emailReceived(let p) = decoded, p.subject == "boom" { throw Bug() }
    }

    package func prepareFlush() throws { try real.prepareFlush() }
    package func discardPending() { real.discardPending() }
}
