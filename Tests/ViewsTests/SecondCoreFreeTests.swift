import EventModel
import Foundation
import Projections
import TestSupport
@testable import Views
import XCTest

/// A replay that leaves the other core to another job (the search index's build) takes it once that job says it
/// has ended: its big batches then fold the contacts view on a second thread, as a fold on two cores does, with
/// the same views.
final class SecondCoreFreeTests: ViewsTestCase {
    /// How many events the contacts view was folded off the main thread (the tests' folding thread).
    private static let offCallingThread = Locked(0)

    /// The contacts projector, counting the events it folds off the main thread.
    final class ThreadNotingContacts: Projector {
        static var name: ViewName { ContactsProjector.name }
        static var schemaVersion: UInt32 { ContactsProjector.schemaVersion }
        let real: ContactsProjector
        init(context: FoldContext) { real = ContactsProjector(context: context) }
        func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
            if !Thread.isMainThread { SecondCoreFreeTests.offCallingThread.withLock { $0 += 1 } }
            try real.apply(event, decoded)
        }
        func prepareFlush() throws { try real.prepareFlush() }
        func discardPending() { real.discardPending() }
    }

    private var offCallingThread: Int { Self.offCallingThread.withLock { $0 } }

    private func receiveMany(_ n: Int) throws {
        var batch: [NewEvent] = []
        for i in 0..<n {
            let d = tick()
            let p = EmailReceived(emailID: "m\(i)", folder: "INBOX", messageID: "m\(i)@example.com", subject: "Hello \(i % 50)",
                                  from: [EmailAddress(name: "Sender \(i % 300)", email: "s\(i % 300)@example.com")],
                                  to: [EmailAddress(name: nil, email: "me@example.com")], date: d, dateSource: .header,
                                  snippet: "snippet \(i)", size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
            batch.append(NewEvent(event: .emailReceived(p), account: "acct", stream: .email("m\(i)"), occurredAt: d, actor: .sync))
        }
        _ = try store.log.append(batch)
    }

    func testAReplayTakesTheSecondCoreOnceTheOtherJobHasEnded() throws {
        XCTAssertTrue(Thread.isMainThread, "the tests fold on the main thread")
        try receiveMany(ViewStore.secondCoreMinimum + 100)
        let head = try store.log.head().sequence
        let catalog = ViewCatalog(ViewCatalog.all.filter { $0.name != .contacts } + [ThreadNotingContacts.self])
        let oneCore = try ViewStore.scratch(in: dir.file("one"), log: store.log, catalog: catalog, through: head, twoCores: false)
        XCTAssertEqual(offCallingThread, 0, "one core: every view folded on the calling thread")

        // The other job still running: asked, and the fold keeps to its core.
        let asked = Locked(0)
        let busy = try ViewStore.replay(store: store.directory, log: store.log, catalog: catalog, twoCores: false,
                                        secondCoreFree: { asked.withLock { $0 += 1 }; return false })
        XCTAssertGreaterThan(asked.withLock { $0 }, 0, "the fold asks whether the second core is free")
        XCTAssertEqual(offCallingThread, 0, "the other job running: the fold keeps to its core")
        try assertEqualViews(busy, oneCore, "one core asked against one core")

        // Ended: the big batch folds the contacts view on a second thread.
        let freed = try ViewStore.replay(store: store.directory, log: store.log, catalog: catalog, twoCores: false,
                                         secondCoreFree: { true })
        XCTAssertGreaterThanOrEqual(offCallingThread, ViewStore.secondCoreMinimum,
                                    "the contacts view folded on the second core once it was free")
        try assertEqualViews(freed, oneCore, "second core taken against one core")
    }
}
