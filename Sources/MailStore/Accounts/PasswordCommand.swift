import Foundation
import SecureTransport
import Glibc

/// Runs a `--password-command` with bounds: `/bin/sh -c CMD` in a process group of its own, stdin from
/// /dev/null, stderr passed through (for prompts), at most `outputLimit` bytes of stdout read, and at most
/// `timeoutSeconds` to finish (its output read and its exit). On timeout, on too much output, or when the read fails,
/// the whole process group is killed (SIGKILL), so a helper the command started does not linger either. The command
/// is bound to this process as notify commands are (`ShellProcess.spawnBound`): however `mailstore` ends (SIGKILL
/// too), the command's process group is killed; a killed `sync` or `outbox send` had left a hung one running.
package struct PasswordCommand {
    /// The longest a password command may run: long enough for a keyring or token helper, short enough
    /// that a hung one does not hang sync.
    package static let defaultTimeoutSeconds = 10.0
    /// The most bytes of output taken (a secret or token is far shorter).
    package static let defaultOutputLimit = 64 << 10

    let command: String
    let timeoutSeconds: Double
    let outputLimit: Int

    /// A command with the given bounds (10 s and 64 KiB unless told).
    package init(command: String, timeoutSeconds: Double = PasswordCommand.defaultTimeoutSeconds,
                 outputLimit: Int = PasswordCommand.defaultOutputLimit) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        self.outputLimit = outputLimit
    }

    /// Runs the command and returns its standard output.
    package func run() throws(AccountError) -> [UInt8] {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .credentialUnavailable("cannot run the password command: pipe: \(PasswordCommand.errorText())") }
        // Neither end may leak into other children this process starts.
        guard fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            let why = PasswordCommand.errorText()
            close(fds[0]); close(fds[1])
            throw .credentialUnavailable("cannot run the password command: fcntl: \(why)")
        }
        let bound: ShellProcess.Bound
        do { bound = try spawn(stdoutWrite: fds[1]) } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        close(fds[1])
        defer { close(fds[0]) }
        let pid = bound.pid
        // On the monotonic clock: a wall clock stepped back does not stretch the limit (a 10 s limit had run for the step).
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        var outcome = collect(fds[0], until: deadline)
        var status: Int32 = 0
        // Its output ended: it exits by the same deadline (a command that closed its stdout and hung is killed too).
        if case .finished = outcome, !PasswordCommand.exited(pid, &status, until: deadline) { outcome = .timedOut }
        if case .finished = outcome {} else {
            kill(-pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        bound.release()
        switch outcome {
        case .timedOut:
            throw .credentialUnavailable("the password command did not finish within \(Int(timeoutSeconds)) s and was killed")
        case .tooLong:
            throw .credentialUnavailable("the password command printed more than \(outputLimit) bytes and was killed")
        case .failed(let why):
            throw .credentialUnavailable("cannot read the password command's output: \(why)")
        case .finished(let bytes):
            let exited = status & 0x7f == 0
            let code = (status >> 8) & 0xff
            guard exited && code == 0 else {
                throw .credentialUnavailable(exited ? "the password command exited with status \(code)"
                                                    : "the password command was killed by signal \(status & 0x7f)")
            }
            return bytes
        }
    }

    private enum Outcome {
        case finished([UInt8])
        case timedOut
        case tooLong
        case failed(String)
    }

    /// Waits for `pid` to exit until `deadline`: true when it did (its status in `status`).
    private static func exited(_ pid: pid_t, _ status: inout Int32, until deadline: Deadline) -> Bool {
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return true }
            if r < 0 && errno != EINTR { return true }  // not our child any more (ECHILD): nothing to wait for
            if deadline.hasPassed { return false }
            usleep(5_000)
        }
    }

    /// Reads stdout to its end, within the deadline and the output limit.
    private func collect(_ fd: Int32, until deadline: Deadline) -> Outcome {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline.remainingSeconds
            if left <= 0 { return .timedOut }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(left * 1000, 1000).rounded(.up)))
            if r < 0 {
                if errno == EINTR { continue }
                return .failed(PasswordCommand.errorText())
            }
            if r == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failed(PasswordCommand.errorText())
            }
            if n == 0 { return .finished(out) }
            if out.count + n > outputLimit { return .tooLong }
            out.append(contentsOf: buffer[0..<n])
        }
    }

    /// Starts `/bin/sh -c command` as the leader of a new process group bound to this process
    /// (`ShellProcess.spawnBound`), stdout to `stdoutWrite`. The calling thread waits for it (`run`).
    private func spawn(stdoutWrite: Int32) throws(AccountError) -> ShellProcess.Bound {
        switch ShellProcess.spawnBound(command, stdin: nil, stdout: stdoutWrite) {
        case .success(let bound): return bound
        case .failure(let e): throw .credentialUnavailable("cannot run the password command: \(e)")
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
