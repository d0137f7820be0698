import Foundation
import Glibc
import LMDB

/// Starts `/bin/sh -c COMMAND` for a command the user configured (`--password-command`, `--notify-command`): the
/// leader of a process group of its own, so that a timeout kills whatever it started too (`kill(-pid, SIGKILL)`),
/// with every signal at its default whatever this process set for itself, bound to this process
/// (``spawnBound(_:stdin:stdout:)``). A command gets this process's environment without the accounts' secret variables
/// (``withhold(_:)``), and none of the store's descriptors (`DescriptorGate`).
package enum ShellProcess {
    /// Why a command could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        /// The error number (of the fork, the pipe or the exec).
        package let code: Int32
        package var description: String { String(cString: strerror(code)) }
    }
}
