import CProcess
import Foundation
import Glibc
import LMDB

extension ShellProcess {
    /// A command started by ``spawnBound(_:stdin:stdout:)``: its pid (the leader of its process group) and its guard's.
    package struct Bound: Sendable {
        /// The command (`/bin/sh`), leader of a process group of its own: `kill(-pid, SIGKILL)` ends it with its children.
        package let pid: pid_t
        /// The guard that kills the command's group if this process ends first (a copy of this process that only waits).
        package let guardPid: pid_t

        /// Ends the guard once the command was waited for (`waitpid(pid)`): it kills it (SIGKILL) and waits for it.
        package func release() {
            kill(guardPid, SIGKILL)
            var status: Int32 = 0
            while waitpid(guardPid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Spawns `/bin/sh -c command` (the leader of a process group of its own, `stdin` or /dev/null, `stdout`, our
    /// stderr, every signal at its default), bound to this process: however this process
    /// ends, SIGKILL included, the command's whole process group is killed (a notify command that hung had outlived a
    /// killed `sync --watch`, with whatever it started). The kernel's parent-death signal (`PR_SET_PDEATHSIG`) does it,
    /// through a guard process (`mailstore_spawn_bound` in CProcess). The calling thread must wait for the command
    /// (the signal comes when the thread that started it ends), then call ``Bound/release()``.
    package static func spawnBound(_ command: String, stdin: Int32?, stdout: Int32) -> Result<Bound, SpawnError> {
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for a in argv { free(a) } }
        let env = childEnvironment()
        defer { for e in env { free(e) } }
        var guardPid: pid_t = 0
        let pid = DescriptorGate.starting {
            argv.withUnsafeBufferPointer { a in
                env.withUnsafeBufferPointer { e in
                    mailstore_spawn_bound("/bin/sh", a.baseAddress, e.baseAddress, stdin ?? -1, stdout, &guardPid)
                }
            }
        }
        return pid > 0 ? .success(Bound(pid: pid, guardPid: guardPid)) : .failure(SpawnError(code: -pid))
    }
}
