import Foundation
import SecureTransport
import Glibc

/// Runs a `--notify-command` or `--withdraw-command` with bounds: `/bin/sh -c CMD` in a process group of its own, the
/// notification's JSON line on its stdin (written without blocking; a command that does not read it is fine), its
/// stdout on our stderr, and at most `timeoutSeconds` for all of it. Past that the whole process group is killed
/// (SIGKILL), so a command's own children (`sleep 60`) go too and the watch thread goes on at once. The command is bound
/// to this process (`ShellProcess.spawnBound`): however the watch ends (SIGKILL, an interrupt), the command's process
/// group is killed too; a hung command had outlived a killed watch, with whatever it started.
///
/// Found by an audit of `sync --watch`: with Foundation's `Process`, a timeout killed only `sh`, and waiting for it
/// waited for its orphaned child as well (181 s of a stalled watch for three hung notifications); and a command that
/// exited without reading a large notification (a 120 KB subject) made the pipe write trap (`Broken pipe`), ending
/// the watch.
package struct NotifyCommand: Sendable {
    /// What became of a run.
    package enum Outcome: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal (not our timeout's) ended it.
        case killedBySignal(Int32)
        /// It ran past its deadline and was killed with its process group.
        case timedOut
        /// It could not be started (why).
        case couldNotStart(String)
    }

    /// The command line (run with `/bin/sh -c`).
    package let command: String
    /// The longest the command may run, its input written included.
    package let timeoutSeconds: Double

    /// A command to run with `/bin/sh -c`, for at most `timeoutSeconds`.
    package init(command: String, timeoutSeconds: Double) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
    }

    /// Runs the command with `input` on its stdin; returns when it ended (or was killed at its deadline).
    package func run(input: [UInt8]) -> Outcome {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return .couldNotStart("pipe: \(String(cString: strerror(errno)))") }
        // Neither end leaks into other children; ours does not block (a command that reads nothing fills the pipe).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        let spawned = ShellProcess.spawnBound(command, stdin: fds[0], stdout: 2)
        close(fds[0])
        let bound: ShellProcess.Bound
        switch spawned {
        case .success(let b): bound = b
        case .failure(let e):
            close(fds[1])
            return .couldNotStart(e.description)
        }
        defer { bound.release() }
        let pid = bound.pid
        // On the monotonic clock: a wall clock stepped back does not stretch the limit (it had, by the step).
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        write(input, to: fds[1], until: deadline)
        close(fds[1])
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return .exited(-1) }
            if deadline.hasPassed {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .timedOut
            }
            usleep(10_000)
        }
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .killedBySignal(status & 0x7f)
    }

    /// Writes `bytes` to the non-blocking `fd` until they are written, the reader is gone (EPIPE: the command did not
    /// want them), or the deadline.
    private func write(_ bytes: [UInt8], to fd: Int32, until deadline: Deadline) {
        var offset = 0
        while offset < bytes.count {
            let left = deadline.remainingSeconds
            if left <= 0 { return }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let r = poll(&p, 1, Int32(min(left * 1000, 100).rounded(.up)))
            if r < 0 && errno != EINTR { return }
            if r <= 0 { continue }
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return  // EPIPE (SIGPIPE is ignored by the watch) or another error: the command has what it took
            }
            offset += n
        }
    }
}
