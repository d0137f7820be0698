import Foundation
import Glibc

/// Starts `/bin/sh -c COMMAND` for a command the user configured (`--password-command`, `--notify-command`): the
/// leader of a process group of its own, so that a timeout kills whatever it started too (`kill(-pid, SIGKILL)`),
/// with SIGPIPE at its default whatever this process set for itself.
package enum ShellProcess {
    /// Spawns `command` with `stdin` (a descriptor, or nil for /dev/null) and `stdout` as its standard input and
    /// output (stderr is ours); returns its pid, or the error number `posix_spawn` gave.
    package static func spawn(_ command: String, stdin: Int32?, stdout: Int32) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) } else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        return rc == 0 ? .success(pid) : .failure(SpawnError(code: rc))
    }

    /// Why a command could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        /// The error number `posix_spawn` returned.
        package let code: Int32
        package var description: String { String(cString: strerror(code)) }
    }
}
