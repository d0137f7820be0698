import CProcess
import Foundation
import Glibc

/// Runs `verify` in a child process of the same program, so that a store file damaged in a way LMDB does not check
/// (a page pointing outside the file, a node's offset past its page: LMDB trusts its pages and reads where they say)
/// is a finding reported by the parent, not a crash of the command whose job is to find it.
///
/// The child is this executable with the same arguments and `MAILSTORE_CRASH_GUARD=child:PID` in its environment (and
/// Swift's backtracer off: the parent says what happened); it inherits standard input, output and error, so its report
/// and progress bar are the command's. Its exit status is the command's; killed by `SIGSEGV` or `SIGBUS`, the parent
/// prints what `onCrash` says (the command's own format: `BAD ...`, or JSON) and exits 1. Any other signal (an
/// interrupt) ends the parent the same way; the parent ended, the kernel ends the child (`bindToParent`).
enum CrashGuard {
    /// The variable that marks the child.
    static let variable = "MAILSTORE_CRASH_GUARD"

    /// True in the child (run the command itself).
    static var isChild: Bool { ProcessInfo.processInfo.environment[variable]?.hasPrefix("child") == true }

    /// In the child: ends it (SIGKILL) when its parent ends, however that ends (a `kill -9` of `verify` had left the
    /// child verifying on, holding its scratch folder's lock, so the next run could not clear it); and at once if the
    /// parent has ended already.
    static func bindToParent() {
        guard let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix("child:"),
              let parent = pid_t(value.dropFirst(6)) else { return }
        _ = mailstore_set_parent_death_signal(SIGKILL)
        if getppid() != parent { exit(1) }
    }

    /// Runs the command line again as a child and exits as it did; `onCrash(signal)` reports a crash and returns the
    /// exit status to end with. Returns without running anything when the child cannot be started (the caller then
    /// runs the command itself).
    static func runAsChild(onCrash: (Int32) -> Int32) -> Never? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              let arguments = try? ProcessArguments.raw() else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        // Checked as UTF-8 by `MailstoreCommand.main` before any command ran.
        p.arguments = arguments.map { String(decoding: $0, as: UTF8.self) }
        var env = ProcessInfo.processInfo.environment
        env[variable] = "child:\(getpid())"
        env["SWIFT_BACKTRACE"] = "enable=no"
        p.environment = env
        // Whatever ends the parent ends the child (`bindToParent`), so the parent keeps its signals' defaults.
        do { try p.run() } catch { return nil }
        p.waitUntilExit()
        let status = p.terminationStatus
        if p.terminationReason == .exit { exit(status) }
        if status == SIGSEGV || status == SIGBUS {
            // The child's progress bar, where it was drawn, is cleared first.
            if Terminal.stderrIsTTY { StandardStream.err(Data("\r\u{1B}[K".utf8)) }
            exit(onCrash(status))
        }
        signal(status, SIG_DFL)
        raise(status)
        exit(128 + status)
    }
}
