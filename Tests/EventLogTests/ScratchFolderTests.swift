import EventLog
import Foundation
import Glibc
import TestSupport
import XCTest

final class ScratchFolderTests: XCTestCase {
    func mode(_ path: String) -> Int {
        var st = stat()
        stat(path, &st)
        return Int(st.st_mode & 0o777)
    }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    func makeStore(_ tmp: TemporaryDirectory) throws -> StoreDirectory {
        let store = StoreDirectory(path: tmp.file("store"))
        try store.create()
        return store
    }

    /// Made on first use in the store's `scratch/`, private, beside its lock file; two are apart; both go with
    /// `remove()` (and a clean-up meanwhile leaves them, their owner alive).
    func testAScratchFolderIsMadeInTheStoreOnFirstUseAndGoesWithItsLockFile() throws {
        let tmp = TemporaryDirectory()
        let store = try makeStore(tmp)
        let root = store.path + "/" + ScratchFolder.folderName
        let one = ScratchFolder(store: store, kind: "verify")
        XCTAssertFalse(exists(root), "nothing is made before the folder is used")
        let path = try one.path()
        XCTAssertEqual(try one.path(), path)
        XCTAssertTrue(path.hasPrefix(root + "/verify-"), path)
        XCTAssertEqual(mode(root), 0o700)
        XCTAssertEqual(mode(path), 0o700)
        XCTAssertEqual(mode(path + ".lock"), 0o600)
        let two = ScratchFolder(store: store, kind: "verify")
        let other = try two.path()
        XCTAssertNotEqual(other, path)
        try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/file"))
        XCTAssertEqual(ScratchFolder.removeAbandoned(in: store), [], "both owners are alive")
        XCTAssertTrue(exists(path + "/file"))
        one.remove()
        XCTAssertFalse(exists(path))
        XCTAssertFalse(exists(path + ".lock"))
        XCTAssertTrue(exists(other))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).sorted(),
                       [String(other.dropFirst(root.count + 1)), String(other.dropFirst(root.count + 1)) + ".lock"])
        withExtendedLifetime(two) {}
    }

    /// What a killed owner leaves (a folder beside a lock file no process holds, a folder without its lock file, a
    /// lock file alone) is removed by the next clean-up; a live owner's folder is left.
    func testWhatKilledOwnersLeftIsRemovedAndALiveOnesFolderIsLeft() throws {
        let tmp = TemporaryDirectory()
        let store = try makeStore(tmp)
        let root = store.path + "/" + ScratchFolder.folderName
        let live = ScratchFolder(store: store, kind: "asof")
        let livePath = try live.path()
        for name in ["verify-dead", "verify-orphan"] {
            try StoreDirectory.makePrivateDirectory(root + "/" + name + "/views")
            try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: root + "/" + name + "/views/data.mdb"))
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/verify-dead.lock", contents: nil))
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/asof-gone.lock", contents: nil))
        XCTAssertEqual(ScratchFolder.removeAbandoned(in: store).sorted(), ["verify-dead", "verify-orphan"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).sorted(),
                       [String(livePath.dropFirst(root.count + 1)), String(livePath.dropFirst(root.count + 1)) + ".lock"])
        live.remove()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root), [])
    }

    /// Where the store's scratch folder cannot be made (here a file holds its name), the system's temporary
    /// folder serves, and the folder is removed all the same.
    func testWhereTheStoreCannotHoldItTheTemporaryFolderServes() throws {
        let tmp = TemporaryDirectory()
        let store = try makeStore(tmp)
        XCTAssertTrue(FileManager.default.createFile(atPath: store.path + "/" + ScratchFolder.folderName, contents: nil))
        let scratch = ScratchFolder(store: store, kind: "asof")
        let path = try scratch.path()
        XCTAssertTrue(path.hasPrefix(try XCTUnwrap(ScratchFolder.temporaryRoot()) + "/asof-"), path)
        XCTAssertEqual(mode(path), 0o700)
        scratch.remove()
        XCTAssertFalse(exists(path))
    }
    /// A scratch folder made in the system's temporary folder has its lock file as in the store's `scratch/`, and the
    /// folders there of processes killed meanwhile go when the next one is made (each killed `verify --views` on a
    /// full disk had left a copy of the views in `$TMPDIR` for good).
    func testFoldersKilledProcessesLeftInTheTemporaryFolderAreRemovedByTheNext() throws {
        let tmp = TemporaryDirectory()
        let store = try makeStore(tmp)
        XCTAssertTrue(FileManager.default.createFile(atPath: store.path + "/" + ScratchFolder.folderName, contents: nil))
        let first = ScratchFolder(store: store, kind: "verify")
        let path = try first.path()
        let root = (path as NSString).deletingLastPathComponent
        XCTAssertTrue(exists(path + ".lock"), "the folder's owner holds a lock file beside it")
        // What a killed run leaves: its folder, and its lock file that no process holds.
        let dead = root + "/verify-\(UInt64.random(in: .min ... .max))"
        defer { try? FileManager.default.removeItem(atPath: dead); unlink(dead + ".lock") }
        try StoreDirectory.makePrivateDirectory(dead + "/views")
        XCTAssertTrue(FileManager.default.createFile(atPath: dead + ".lock", contents: nil))
        let next = ScratchFolder(store: store, kind: "verify")
        _ = try next.path()
        XCTAssertFalse(exists(dead), "a dead process's folder is removed")
        XCTAssertFalse(exists(dead + ".lock"))
        XCTAssertTrue(exists(path), "a live one's is left")
        first.remove()
        next.remove()
        XCTAssertFalse(exists(path))
        XCTAssertFalse(exists(path + ".lock"))
    }

    /// Work the store's disk has no room for (twice what it is expected to write, and 64 MiB) goes to the system's
    /// temporary folder, and the caller is told; work that fits stays in the store.
    func testWorkTheStoresDiskHasNoRoomForGoesToTheTemporaryFolder() throws {
        let tmp = TemporaryDirectory()
        let store = try makeStore(tmp)
        let told = Told()
        let huge = ScratchFolder(store: store, kind: "verify", expectedBytes: Int.max / 4) { told.add($0) }
        let path = try huge.path()
        XCTAssertTrue(path.hasPrefix(try XCTUnwrap(ScratchFolder.temporaryRoot()) + "/verify-"), path)
        XCTAssertEqual(told.count, 1)
        XCTAssertTrue(told.first.contains("the store's disk has"), told.first)
        huge.remove()
        let small = ScratchFolder(store: store, kind: "verify", expectedBytes: 1 << 20) { told.add($0) }
        XCTAssertTrue(try small.path().hasPrefix(store.path + "/scratch/verify-"))
        XCTAssertEqual(told.count, 1)
        XCTAssertEqual(ScratchFolder.roomNeeded(for: 1 << 20), (2 << 20) + (64 << 20))
        XCTAssertEqual(ScratchFolder.roomNeeded(for: Int.max / 2 + 1), Int.max)
    }

    /// What a scratch folder told.
    final class Told: @unchecked Sendable {
        private var lines: [String] = []
        func add(_ s: String) { lines.append(s) }
        var count: Int { lines.count }
        var first: String { lines.first ?? "" }
    }
    /// A clean-up reads at most `maxEntries` entries of the scratch folder: 5,000 abandoned lock files go in two.
    func testACleanUpReadsABoundedNumberOfEntries() throws {
        let tmp = TemporaryDirectory()
        let store = try makeStore(tmp)
        let root = store.path + "/" + ScratchFolder.folderName
        try StoreDirectory.makePrivateDirectory(root)
        for i in 0..<5_000 { XCTAssertTrue(FileManager.default.createFile(atPath: root + "/verify-\(i).lock", contents: nil)) }
        ScratchFolder.removeAbandoned(in: store)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).count, 5_000 - ScratchFolder.maxEntries)
        ScratchFolder.removeAbandoned(in: store)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root), [])
    }
}
