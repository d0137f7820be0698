import EventLog
import EventModel
import LMDB
import TestSupport
import XCTest

/// Shared helpers: a fresh log in a temp folder.
class EventLogTestCase: FolderTestCase {
    override class var folderPrefix: String { "eventlog" }

    func openLog(mapSize: Int = 256 << 20) throws -> EventLog {
        var o = Environment.Options()
        o.mapSize = mapSize
        return try EventLog(path: dir.path, options: o)
    }

    func event(_ e: DomainEvent, stream: StreamName = "s", id: EventID = .generate(),
               expected: ExpectedVersion = .any, correlation: EventID? = nil) -> NewEvent {
        NewEvent(id: id, event: e, account: "acct", stream: stream, occurredAt: Timestamp(microseconds: 1_000),
                 correlationID: correlation, actor: .sync, expectedVersion: expected)
    }

    func categorized(_ n: Int, padding: Int = 0) -> DomainEvent {
        .emailCategorized(EmailCategorized(emailID: "email-\(n)" + String(repeating: "p", count: padding),
                                           category: .updates, classifier: "test"))
    }

    func all(_ log: EventLog, filter: ScanFilter = .all, from: UInt64 = 1) throws -> [StoredEvent] {
        var out: [StoredEvent] = []
        try log.scan(from: from, filter: filter) { out.append($0); return true }
        return out
    }
}
