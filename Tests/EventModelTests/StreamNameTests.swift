import EventModel
import XCTest

/// Stream names are the exact strings the log has always stored, and parse back.
final class StreamNameTests: XCTestCase {
    func testRawValuesAreTheStoredNames() {
        XCTAssertEqual(StreamName.store.rawValue, "store")
        XCTAssertEqual(StreamName.email("e1").rawValue, "email/e1")
        XCTAssertEqual(StreamName.account("work").description, "account/work")
        XCTAssertEqual(StreamName.action("a1").rawValue, "action/a1")
        XCTAssertEqual(StreamName.thread("t1").rawValue, "thread/t1")
        XCTAssertEqual(StreamName.draft("d1").rawValue, "draft/d1")
        XCTAssertEqual(StreamName.folder(account: "work", path: "[Gmail]/All Mail").rawValue, "folder/work/[Gmail]/All Mail")
        let id = EventID.generate()
        XCTAssertEqual(StreamName.action(id).rawValue, "action/\(id)")
    }

    func testKindParsesBack() {
        let names: [StreamName] = [.store, .email("e/1"), .account("work"), .action("a"), .thread("t"), .draft("d"),
                                   .folder(account: "work", path: "[Gmail]/All Mail"), "batch/3", "s", "folder/nopath"]
        for n in names { XCTAssertEqual(StreamName(n.kind), n, n.rawValue) }
        XCTAssertEqual(StreamName.folder(account: "work", path: "a/b").kind, .folder(account: "work", path: "a/b"))
        XCTAssertEqual(StreamName.email("e/1").kind, .email("e/1"))
        XCTAssertEqual(StreamName(rawValue: "s").kind, .other("s"))
        XCTAssertEqual(StreamName(rawValue: "folder/nopath").kind, .other("folder/nopath"))
    }
}
