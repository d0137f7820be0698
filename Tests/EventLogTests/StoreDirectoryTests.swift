import EventLog
import Foundation
import LMDB
import TestSupport
import XCTest

final class StoreDirectoryTests: XCTestCase {
    func mode(_ path: String) -> Int {
        var st = stat()
        stat(path, &st)
        return Int(st.st_mode & 0o777)
    }

    func testCreateMakesPrivateFoldersAndFiles() throws {
        let tmp = TemporaryDirectory()
        let store = StoreDirectory(path: tmp.file("store"))
        try store.create()
        XCTAssertEqual(mode(store.path), 0o700)
        XCTAssertEqual(mode(store.logPath), 0o700)
        XCTAssertEqual(mode(store.viewsPath), 0o700)
        XCTAssertEqual(mode(store.formatFile), 0o600)
        let log = try EventLog(store: store, creating: true)
        try log.append(NewEventFixtures.one())
        XCTAssertEqual(mode(store.logPath + "/data.mdb"), 0o600)
        XCTAssertEqual(mode(store.logPath + "/lock.mdb"), 0o600)
        XCTAssertThrowsError(try store.create()) { XCTAssertEqual($0 as? StoreError, .alreadyExists(store.path)) }
    }

    func testNewerFormatIsRefusedWithoutTouchingTheStore() throws {
        let tmp = TemporaryDirectory()
        let store = StoreDirectory(path: tmp.file("store"))
        try store.create()
        let next = StoreDirectory.formatVersion + 1
        try "mailstore-store-format \(next)\n".write(toFile: store.formatFile, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try EventLog(store: store)) { error in
            XCTAssertEqual(error as? StoreError, .newerFormat(found: next, supported: StoreDirectory.formatVersion))
            XCTAssertTrue("\(error)".contains("upgrade mailstore"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.logPath + "/data.mdb"))
    }

    func testFormat1StoreOpensAndIsUpgradedOnlyWhenOpenedForWriting() throws {
        let tmp = TemporaryDirectory()
        let store = StoreDirectory(path: tmp.file("store"))
        try store.create()
        try "mailstore-store-format 1\n".write(toFile: store.formatFile, atomically: true, encoding: .utf8)
        do {
            let log = try EventLog(store: store, creating: true)
            try log.append(NewEventFixtures.one())
        }
        try "mailstore-store-format 1\n".write(toFile: store.formatFile, atomically: true, encoding: .utf8)
        var readOnly = Environment.Options()
        readOnly.readOnly = true
        do {
            // Closed before the writable open: one process may not have the log open both ways at once.
            let reader = try EventLog(store: store, options: readOnly)
            XCTAssertEqual(try reader.head().sequence, 1)
            XCTAssertEqual(try store.checkFormat(), 1, "a read-only open leaves the format alone")
        }
        _ = try EventLog(store: store)
        XCTAssertEqual(try store.checkFormat(), StoreDirectory.formatVersion)
        XCTAssertEqual(try String(contentsOfFile: store.formatFile, encoding: .utf8), "mailstore-store-format \(StoreDirectory.formatVersion)\n")
    }

    func testMissingStoreSaysToInit() {
        let tmp = TemporaryDirectory()
        XCTAssertThrowsError(try EventLog(store: StoreDirectory(path: tmp.file("nothing")))) { error in
            XCTAssertTrue("\(error)".contains("mailstore init"))
        }
    }

    func testResolveOrder() {
        XCTAssertEqual(StoreDirectory.resolve(explicit: "/a", environment: ["MAILSTORE_HOME": "/b"]), "/a")
        XCTAssertEqual(StoreDirectory.resolve(explicit: nil, environment: ["MAILSTORE_HOME": "/b", "HOME": "/h"]), "/b")
        XCTAssertEqual(StoreDirectory.resolve(explicit: nil, environment: ["HOME": "/h"]), "/h/.local/share/mailstore")
        XCTAssertEqual(StoreDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]), "/x/mailstore")
    }
}

enum NewEventFixtures {
    static func one() -> EventModel.NewEvent {
        NewEvent(event: .folderRemoved(FolderRemoved(folder: "f")), account: "a", stream: "s", actor: .system)
    }
}
import EventModel
