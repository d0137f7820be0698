import Foundation
import Glibc
import LMDB
import TestSupport
import XCTest

/// The files an environment opens for writing are never opened through a symbolic link: a `lock.mdb` or `data.mdb`
/// that is a link (planted by whoever could write the folder) is refused, and the file it names is left byte for byte
/// as it was. A run as root of `stats` on a store whose `log/lock.mdb` named a root-owned file had cut that file to
/// 8,192 bytes and written LMDB's lock table over it. A lock file (`FileLock`) is never made through a link either.
final class LinkedFileTests: LMDBTestCase {
    private let precious = Array("precious contents, not the store's\n".utf8)

    /// A file outside the environment's folder, holding `precious`.
    private func target(_ name: String, bytes: [UInt8]? = nil) throws -> String {
        let path = dir.file(name)
        try Data(bytes ?? precious).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map(Array.init) }

    func testALockFileThatIsALinkIsRefusedAndWhatItNamesLeftAlone() throws {
        let folder = dir.file("env")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let victim = try target("victim")
        XCTAssertEqual(symlink(victim, folder + "/lock.mdb"), 0)
        XCTAssertThrowsError(try Environment(path: folder)) { error in
            XCTAssertTrue("\(error)".contains("lock.mdb") && "\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertEqual(bytes(victim), precious)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/data.mdb"), "nothing was made")
    }

    func testADataFileThatIsALinkIsRefusedAndWhatItNamesLeftAlone() throws {
        let folder = dir.file("env")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // An empty file: LMDB, opening it through the link, would write a new environment's header into it.
        let victim = try target("victim", bytes: [])
        XCTAssertEqual(symlink(victim, folder + "/data.mdb"), 0)
        for readOnly in [false, true] {
            var o = Environment.Options()
            o.readOnly = readOnly
            XCTAssertThrowsError(try Environment(path: folder, options: o)) { error in
                XCTAssertTrue("\(error)".contains("data.mdb") && "\(error)".contains("symbolic link"), "\(error)")
            }
        }
        XCTAssertEqual(bytes(victim), [])
        // A data file that is not a regular file (a FIFO: an open of it would block) is refused too.
        let other = dir.file("fifo-env")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(other + "/data.mdb", 0o600), 0)
        XCTAssertThrowsError(try Environment(path: other)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }

    func testAFileLockIsNeverTakenOrMadeThroughALink() throws {
        let missing = dir.file("made-through-the-link")
        XCTAssertEqual(symlink(missing, dir.file("dangling.lock")), 0)
        XCTAssertNil(FileLock.acquire(dir.file("dangling.lock"), exclusive: true))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "no file was made where the link points")
        let victim = try target("victim")
        XCTAssertEqual(symlink(victim, dir.file("existing.lock")), 0)
        XCTAssertNil(FileLock.acquire(dir.file("existing.lock"), exclusive: false, create: false))
        XCTAssertEqual(bytes(victim), precious)
    }
}
