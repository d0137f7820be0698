import EventLog
import Foundation
import Glibc
import LMDB
import TestSupport
import XCTest

/// A store is used only by the user who owns its folder, and the files it writes are never written through a link: a
/// store of another user is refused before anything in it is opened (root running `stats` on a user's store had
/// written through a link the user planted, and `search` had left root-owned files that locked the user out of their
/// own store), and a private file's temporary name that is a link is replaced, never written through.
final class StoreOwnershipTests: XCTestCase {
    /// A uid that owns nothing here (`nobody`).
    private let nobody: uid_t = 65534

    private func requireRoot() throws {
        guard geteuid() == 0 else { throw XCTSkip("giving a folder to another user needs root (the test suite runs as root)") }
    }

    func testAStoreOfAnotherUserIsRefusedBeforeAnythingIsOpened() throws {
        try requireRoot()
        let tmp = TemporaryDirectory()
        let store = StoreDirectory(path: tmp.file("store"))
        try store.create()
        do { try EventLog(store: store, creating: true).append(NewEventFixtures.one()) }
        let before = try FileManager.default.contentsOfDirectory(atPath: store.logPath).sorted()
        XCTAssertEqual(chown(store.path, nobody, gid_t(nobody)), 0)
        for readOnly in [false, true] {
            var options = Environment.Options()
            options.readOnly = readOnly
            XCTAssertThrowsError(try EventLog(store: store, options: options)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("belongs to") && text.contains("uid \(nobody)") && text.contains("sudo -u"), text)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.logPath).sorted(), before)
        // Given back to this user, it opens.
        XCTAssertEqual(chown(store.path, geteuid(), getegid()), 0)
        XCTAssertEqual(try EventLog(store: store).head().sequence, 1)
    }

    func testAnEmptyFolderOfAnotherUserIsNotMadeAStore() throws {
        try requireRoot()
        let tmp = TemporaryDirectory()
        let path = tmp.file("theirs")
        XCTAssertEqual(mkdir(path, 0o700), 0)
        XCTAssertEqual(chown(path, nobody, gid_t(nobody)), 0)
        XCTAssertThrowsError(try StoreDirectory(path: path).create()) { error in
            XCTAssertTrue("\(error)".contains("belongs to"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path), [])
    }

    func testAPrivateFileIsNeverWrittenThroughALinkAtItsTemporaryName() throws {
        let tmp = TemporaryDirectory()
        let victim = tmp.file("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        let file = tmp.file("FORMAT")
        XCTAssertEqual(symlink(victim, file + ".\(getpid()).tmp"), 0)
        try StoreDirectory.writePrivateFile(file, contents: "new contents\n")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n", "the link's target is left alone")
        var st = stat()
        XCTAssertEqual(lstat(file, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "the file is a file of its own, not the link")
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "new contents\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + ".\(getpid()).tmp"))
    }
}
