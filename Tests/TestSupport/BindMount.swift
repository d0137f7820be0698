import Foundation

/// A bind mount of one folder on another, undone when released: another path to the same folder (how a test shows a
/// check by path alone being gone round). Needs root or the capability to mount.
package final class BindMount {
    /// Where the folder is mounted.
    package let path: String

    /// Mounts `source` on the existing folder `path`, or returns nil when it cannot (not root).
    package init?(_ source: String, on path: String) {
        self.path = path
        guard (try? ChildProcess.run("/bin/mount", ["--bind", source, path]))?.status == 0 else { return nil }
    }

    /// Unmounted lazily: a file still open under it does not keep the mount.
    deinit {
        _ = try? ChildProcess.run("/bin/umount", ["-l", path])
    }
}
