import Foundation
import Glibc
@testable import MailStore
import TestSupport
import XCTest

/// The notify command of `sync --watch` runs within its bounds: a hung one is killed with its children when its time
/// is up (the watch had waited for the orphaned child too), and one that reads nothing of a large notification ends
/// the run, not the watch (the write to its pipe had trapped); and it ends with its children when the process running
/// it is killed (SIGKILL: it had outlived the watch).
final class NotifyCommandTests: XCTestCase {
    func testAHungCommandIsKilledWithItsChildrenAtItsDeadline() throws {
        let start = Date()
        let outcome = NotifyCommand(command: "sleep 60; true", timeoutSeconds: 0.5).run(input: Array("{}\n".utf8))
        XCTAssertEqual(outcome, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "not the child's 60 s")
    }

    func testACommandThatReadsNothingOfALargeInputIsARunNotACrash() throws {
        signal(SIGPIPE, SIG_IGN)  // as the watch sets it
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        XCTAssertEqual(NotifyCommand(command: "exit 0", timeoutSeconds: 5).run(input: big), .exited(0))
        XCTAssertEqual(NotifyCommand(command: "exit 3", timeoutSeconds: 5).run(input: big), .exited(3))
        // A command that neither reads nor exits is still bounded by its deadline.
        XCTAssertEqual(NotifyCommand(command: "sleep 30", timeoutSeconds: 0.5).run(input: big), .timedOut)
    }

    func testTheInputReachesTheCommand() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        defer { unlink(out) }
        XCTAssertEqual(NotifyCommand(command: "cat > '\(out)'", timeoutSeconds: 5).run(input: Array("{\"a\":1}\n".utf8)), .exited(0))
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "{\"a\":1}\n")
    }

    /// Set in the child process whose notify command outlived it: the folder its command writes its pids in.
    static let childFolder = "MAILSTORE_TEST_NOTIFY_CHILD"

    func isGone(_ pid: pid_t) -> Bool { ProcessProbe.isGone(pid) }

    /// A notify command that writes its shell's and its child's pids, then waits for the child (60 s).
    func command(writingPidsIn dir: String) -> String { ProcessProbe.commandWritingPids(in: dir) }

    /// A watch SIGKILLed while its notify command runs: the command (`/bin/sh`) and what it started (`sleep 60`) end
    /// within seconds (the kernel's parent-death signal, and the guard that kills the command's process group). They
    /// had run on, orphaned, for their whole minute. The "watch" is this test in a process of its own, its
    /// `DeliveryWorker` running the command as the watch's does.
    func testTheCommandAndItsChildrenEndWhenTheProcessRunningItIsKilled() throws {
        if let dir = ProcessInfo.processInfo.environment[Self.childFolder] {
            signal(SIGPIPE, SIG_IGN)
            let line = command(writingPidsIn: dir)
            let worker = DeliveryWorker(name: "notify child") {
                _ = NotifyCommand(command: line, timeoutSeconds: 60).run(input: Array("{}\n".utf8))
            }
            worker.ask()
            sleep(90)  // killed by the parent long before
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notify-kill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var env = ProcessInfo.processInfo.environment
        env[Self.childFolder] = dir
        let p = try ProcessProbe.start(CommandLine.arguments[0],
                                       ["ImportTests.NotifyCommandTests/testTheCommandAndItsChildrenEndWhenTheProcessRunningItIsKilled"],
                                       environment: env)
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(Poll.until(seconds: 60) { FileManager.default.fileExists(atPath: "\(dir)/sleep") }, "the command runs")
        let sh = try XCTUnwrap(pid_t(String(contentsOfFile: "\(dir)/sh", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let child = try XCTUnwrap(pid_t(String(contentsOfFile: "\(dir)/sleep", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertFalse(isGone(sh))
        XCTAssertFalse(isGone(child))
        defer {  // whatever the outcome, nothing is left running
            kill(sh, SIGKILL)
            kill(child, SIGKILL)
        }
        // Not `waitUntilExit()` first: Foundation's wait for the killed child lasts as long as the orphans do.
        kill(p.processIdentifier, SIGKILL)
        XCTAssertTrue(Poll.until(seconds: 5) { isGone(sh) }, "the command's shell ended with the process that ran it")
        XCTAssertTrue(Poll.until(seconds: 5) { isGone(child) }, "and what it started (its process group)")
    }

    /// The thread that started a command ending (the watch's delivery thread, say) ends the command and its group too;
    /// and a command that ran to its end leaves no guard behind.
    func testABoundCommandEndsWithTheThreadThatStartedItAndLeavesNoGuard() throws {
        let done = try XCTUnwrap(try? ShellProcess.spawnBound("exit 0", stdin: nil, stdout: 2).get())
        var status: Int32 = 0
        XCTAssertEqual(waitpid(done.pid, &status, 0), done.pid)
        done.release()
        XCTAssertEqual(kill(done.guardPid, 0), -1, "the guard was reaped")
        XCTAssertEqual(errno, ESRCH)

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notify-thread-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        final class Box: @unchecked Sendable { let lock = NSLock(); var bound: ShellProcess.Bound? }
        let box = Box()
        let started = DispatchSemaphore(value: 0)
        let line = command(writingPidsIn: dir)
        let sleepFile = "\(dir)/sleep"
        let thread = Thread {
            let b = try? ShellProcess.spawnBound(line, stdin: nil, stdout: 2).get()
            box.lock.withLock { box.bound = b }
            started.signal()
            // The thread ends once the command started its child.
            var tries = 0
            while tries < 1000 && !FileManager.default.fileExists(atPath: sleepFile) {
                tries += 1
                usleep(10_000)
            }
        }
        thread.start()
        started.wait()
        let bound = try XCTUnwrap(box.lock.withLock { box.bound })
        defer {
            kill(-bound.pid, SIGKILL)
            var s: Int32 = 0
            _ = waitpid(bound.pid, &s, 0)
            bound.release()
        }
        XCTAssertTrue(Poll.until(seconds: 10) { FileManager.default.fileExists(atPath: "\(dir)/sleep") }, "the command runs")
        let child = try XCTUnwrap(pid_t(String(contentsOfFile: "\(dir)/sleep", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(child, SIGKILL) }
        XCTAssertTrue(Poll.until(seconds: 5) { waitpid(bound.pid, &status, WNOHANG) == bound.pid }, "the shell ended")
        XCTAssertTrue(Poll.until(seconds: 5) { isGone(child) }, "and its child")
    }
}
