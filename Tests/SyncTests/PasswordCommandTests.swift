import Foundation
import MailStore
import TestSupport
import XCTest

/// The password command's bounds: a time limit and an output cap, past which its whole process group is
/// killed.
final class PasswordCommandTests: XCTestCase {
    func testAHungCommandIsKilledWithItsProcessGroup() throws {
        let dir = TemporaryDirectory("password-command")
        let pidFile = dir.file("pid")
        // The command starts a background sleeper (same process group) and then hangs itself.
        let command = PasswordCommand(command: "sleep 30 & echo $! > \(pidFile); sleep 30", timeoutSeconds: 1)
        XCTAssertThrowsError(try command.run()) { error in
            XCTAssertTrue("\(error)".contains("did not finish within 1 s and was killed"), "\(error)")
        }
        let pid = try XCTUnwrap(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The background sleeper was in the group: it is gone (or a zombie awaiting its reaper) once killed.
        XCTAssertTrue(Poll.until(seconds: 2) { ProcessProbe.isGone(pid) }, "the process group's background sleeper \(pid) survived")
    }

    func testEndlessOutputIsCappedAndTheCommandKilled() {
        XCTAssertThrowsError(try PasswordCommand(command: "yes", timeoutSeconds: 30).run()) { error in
            XCTAssertTrue("\(error)".contains("printed more than 65536 bytes"), "\(error)")
        }
    }

    func testASecretIsReadAndAFailureReported() throws {
        XCTAssertEqual(try PasswordCommand(command: "printf 's3cret\\n'").run(), Array("s3cret\n".utf8))
        XCTAssertEqual(try CredentialSource.command("printf 's3cret\\n'").secret(), "s3cret")
        XCTAssertThrowsError(try PasswordCommand(command: "exit 3").run()) { error in
            XCTAssertTrue("\(error)".contains("exited with status 3"), "\(error)")
        }
    }

    /// A `mailstore` SIGKILLed while its password command runs: the command (`/bin/sh`) and what it started
    /// (`sleep 60`) end within seconds, as a notify command's do (`ShellProcess.spawnBound`: the kernel's parent-death
    /// signal, and the guard that kills the command's process group). They had run on, orphaned, for their minute (a
    /// keyring prompt or a hung token helper for good).
    func testTheCommandAndItsChildEndWhenTheMailstoreRunningItIsKilled() throws {
        let dir = TemporaryDirectory("password-command-kill")
        let store = dir.file("store")
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let mailstore = BuiltProducts.executable("mailstore")
        for args in [["init"], ["account", "add", "work", "--email", "me@example.com", "--host", "127.0.0.1", "--port", "1",
                                "--security", "tls", "--password-command", ProcessProbe.commandWritingPids(in: dir.path)]] {
            let r = try ChildProcess.run(mailstore, args, environment: env)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        // The secret is read before the server is reached: the sync waits for the command.
        let p = try ProcessProbe.start(mailstore, ["sync", "--account", "work"], environment: env)
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(Poll.until(seconds: 60) { FileManager.default.fileExists(atPath: dir.file("sleep")) }, "the command runs")
        let sh = try XCTUnwrap(ProcessProbe.pid(in: dir.file("sh")))
        let child = try XCTUnwrap(ProcessProbe.pid(in: dir.file("sleep")))
        XCTAssertFalse(ProcessProbe.isGone(sh))
        XCTAssertFalse(ProcessProbe.isGone(child))
        defer {  // whatever the outcome, nothing is left running
            kill(sh, SIGKILL)
            kill(child, SIGKILL)
        }
        // Not `waitUntilExit()` first: Foundation's wait for the killed child lasts as long as the orphans do.
        kill(p.processIdentifier, SIGKILL)
        XCTAssertTrue(Poll.until(seconds: 5) { ProcessProbe.isGone(sh) }, "the command's shell ended with the mailstore that ran it")
        XCTAssertTrue(Poll.until(seconds: 5) { ProcessProbe.isGone(child) }, "and what it started (its process group)")
    }

    /// A command that closed its output and hung is held to the same deadline: killed with its group, not waited for.
    func testACommandThatClosedItsOutputAndHungIsKilledAtItsDeadline() throws {
        let start = Date()
        XCTAssertThrowsError(try PasswordCommand(command: "printf pw; exec >&-; sleep 30", timeoutSeconds: 1).run()) { error in
            XCTAssertTrue("\(error)".contains("did not finish within 1 s and was killed"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "not the command's 30 s")
    }
}
