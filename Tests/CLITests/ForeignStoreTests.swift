import Foundation
import Glibc
import TestSupport
import XCTest

/// What an administrator meets running mailstore on a store that is not theirs: the store's owner planted a link to a
/// root-owned file as `log/lock.mdb`, and `stats`, `verify` and `log` run as root had cut that file to 8,192 bytes and
/// written LMDB's lock table over it; `search` run as root had left root-owned files in the store that refused its
/// owner every later command. Now a store of another user is refused at once, saying whose it is and how to run the
/// command as them, and a store's file that is a link is refused whoever runs the command.
final class ForeignStoreTests: CLITestCase {
    private func runAll(_ commands: [[String]], check: (String, ChildProcess.Result) -> Void) throws {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        for command in commands {
            check(command.joined(separator: " "), try ChildProcess.run(BuiltProducts.executable("mailstore"), command, environment: env))
        }
    }

    func testAStoreWhoseLockFileIsALinkIsRefusedAndTheLinkedFileLeftAlone() throws {
        try mailstore("init")
        let victim = dir.file("victim")
        let precious = "an administrator's file\n"
        try precious.write(toFile: victim, atomically: false, encoding: .utf8)
        XCTAssertEqual(unlink(store + "/log/lock.mdb"), 0)
        XCTAssertEqual(symlink(victim, store + "/log/lock.mdb"), 0)
        try runAll([["stats"], ["verify"], ["log"]]) { command, r in
            XCTAssertNotEqual(r.status, 0, "\(command): \(r.stdout)")
            XCTAssertTrue(r.stderr.contains("lock.mdb") && r.stderr.contains("symbolic link"), "\(command): \(r.stderr)")
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), precious)
    }

    func testAStoreOfAnotherUserIsRefusedNamingItsOwner() throws {
        guard geteuid() == 0 else { throw XCTSkip("giving a folder to another user needs root (the test suite runs as root)") }
        try mailstore("init")
        let nobody: uid_t = 65534
        XCTAssertEqual(chown(store, nobody, gid_t(nobody)), 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: store).sorted()
        try runAll([["stats"], ["verify"], ["log"], ["search", "hello"]]) { command, r in
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("belongs to") && r.stderr.contains("uid \(nobody)") && r.stderr.contains("sudo -u"),
                          "\(command): \(r.stderr)")
        }
        // Nothing was made in it (a root-owned file there would refuse its owner).
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: store).sorted(), before)
    }
}
