import EventModel
import Foundation
import Projections
import TestSupport
@testable import Views
import XCTest

/// The contacts projector, counting the messages it folds (from any thread).
final class CountingContactsProjector: Projector {
    static var name: ViewName { ContactsProjector.name }
    static var schemaVersion: UInt32 { ContactsProjector.schemaVersion }
    nonisolated(unsafe) static var received = 0
    static let lock = NSLock()
    let real: ContactsProjector

    init(context: FoldContext) { real = ContactsProjector(context: context) }

    func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        if case .emailReceived = decoded { Self.lock.withLock { Self.received += 1 } }
        try real.apply(event, decoded)
    }

    func prepareFlush() throws { try real.prepareFlush() }
    func discardPending() { real.discardPending() }
}

/// A live batch big enough for the second core, naming more contacts than the contacts view writes a part at
/// (`ContactsProjector.maxPending`): the second core has no write transaction, so it writes no part, and the batch is
/// folded once (a part had failed there, and the batch was folded again one event at a time), to the views a fold on
/// one core makes.
final class SecondCorePartsTests: ViewsTestCase {
    func testALiveBatchOnTheSecondCoreWritesNoPartAndIsFoldedOnce() throws {
        let messages = ViewStore.secondCoreMinimum + 100
        let recipients = 5
        XCTAssertGreaterThan(messages * recipients, ContactsProjector.maxPending)
        var batch: [NewEvent] = []
        for i in 0..<messages {
            let to = (0..<recipients).map { EmailAddress(name: "Person \(i) \($0)", email: "p\(i)x\($0)@example.com") }
            let p = EmailReceived(emailID: "m\(i)", folder: "INBOX", messageID: "m\(i)@x", subject: "s \(i)",
                                  from: [EmailAddress(name: nil, email: "s\(i % 7)@example.com")], to: to,
                                  date: tick(), dateSource: .header, size: 10, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
            batch.append(NewEvent(event: .emailReceived(p), account: "acct", stream: .email("m\(i)"), actor: .sync))
        }
        // The views live first (a first fold may build them from empty, writing behind), then the batch.
        try receive("first")
        let catalog = ViewCatalog(ViewCatalog.all.filter { $0.name != .contacts } + [CountingContactsProjector.self])
        let live = try ViewStore.open(store: store.directory, log: store.log, catalog: catalog)
        try live.catchUp()
        CountingContactsProjector.received = 0
        try store.log.append(batch)
        try live.catchUp()
        XCTAssertEqual(CountingContactsProjector.received, messages, "each message folded once")
        XCTAssertEqual(try live.quarantined().count, 0)
        let one = try ViewStore.scratch(in: dir.file("one"), log: store.log, through: try store.log.head().sequence, twoCores: false)
        try assertEqualViews(live, one, "a fold on one core")
    }
}
