import EventLog
import Foundation
import MailStore
@testable import SearchIndex
import TestSupport
import XCTest

/// A store on a read-only filesystem (a read-only bind mount) is searched where it is: its index opened read-only
/// when it is this log's (as it stands when behind, said so), else one built in a private temporary folder; nothing
/// in the store is written.
final class ReadOnlyIndexTests: SearchIndexTestCase {
    /// Opens the search index of the store at `path` mounted read-only, as `search` does; the email ids of "kayak" and
    /// of "quarterly" in it, and the notices.
    private func searchReadOnly(_ path: String) throws -> (kayak: [String], quarterly: [String], notices: [String]) {
        guard let mount = ReadOnlyMount(path) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("cannot make a read-only bind mount"); return ([], [], []) }
            throw XCTSkip("cannot make a read-only bind mount here")
        }
        defer { withExtendedLifetime(mount) {} }
        let before = try ReadOnlyMount.listing(path)
        let ro = try MailStore.open(at: path, readOnly: true)
        var notices: [String] = []
        let idx = try SearchIndex.open(folder: ro.directory.viewsPath + "/search", log: ro.log, notice: { notices.append($0) })
        let found = (try hits("kayak", idx, expanded: true), try hits("quarterly", idx, expanded: true), notices)
        XCTAssertEqual(try ReadOnlyMount.listing(path), before, "nothing in the store changed")
        return found
    }

    func testAReadOnlyStoresIndexIsSearchedWhereItIs() throws {
        try importMessages(SearchIndexTests.messages)
        let early = try store.log.head().sequence
        try importMessages(SearchIndexTestCase.kayak)
        let path = store.directory.path, folder = store.directory.viewsPath + "/search"
        _ = try SearchIndex.rebuild(folder: folder, log: store.log)
        store = nil

        // Current: searched as it is, with no word.
        var r = try searchReadOnly(path)
        XCTAssertEqual(r.kayak.count, 1)
        XCTAssertEqual(r.quarterly.count, 2)
        XCTAssertEqual(r.notices, [])

        // Behind the log: searched as it stands, said so.
        store = try MailStore.open(at: path)
        _ = try SearchIndex.rebuild(folder: folder, log: store.log, through: early)
        store = nil
        r = try searchReadOnly(path)
        XCTAssertEqual(r.kayak, [], "the mail after its checkpoint is not searched")
        XCTAssertEqual(r.quarterly.count, 2)
        XCTAssertTrue(r.notices.contains { $0.contains("cannot be written") && $0.contains("folded through event \(early)") }, "\(r.notices)")

        // Missing: built in a private folder of this user's scratch root in $TMPDIR, removed once released; one a
        // killed search left there (its lock file held by no process) is removed by the next.
        try FileManager.default.removeItem(atPath: folder + "/" + SearchIndex.fileName)
        let root = try XCTUnwrap(ScratchFolder.temporaryRoot())
        let abandoned = root + "/search-killed\(getpid())"
        try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: abandoned + "/index.sqlite", contents: Data("words".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: abandoned + ".lock", contents: nil))
        let temporary = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        let others = Set(try FileManager.default.contentsOfDirectory(atPath: root)).subtracting(["search-killed\(getpid())", "search-killed\(getpid()).lock"])
        r = try searchReadOnly(path)
        XCTAssertEqual(r.kayak.count, 1)
        XCTAssertEqual(r.quarterly.count, 2)
        XCTAssertTrue(r.notices.contains { $0.contains("is missing") && $0.contains("private index") && $0.contains(root) }, "\(r.notices)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())).subtracting(temporary)
        XCTAssertEqual(left.filter { $0.hasPrefix("mailstore-search-") }, [], "nothing in $TMPDIR but the scratch root")
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned), "a killed search's private index is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned + ".lock"))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: root)).subtracting(others).filter { $0.hasPrefix("search-") }, [],
                       "the private index is removed once released")
    }
}
