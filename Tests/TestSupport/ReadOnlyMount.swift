import Foundation

/// A read-only bind mount of a folder over itself, undone when released: how a test puts a store on a read-only
/// filesystem (root ignores file modes, so a mount it must be). Needs root or the capability to mount.
package final class ReadOnlyMount {
    /// The folder mounted read-only.
    package let path: String

    /// Mounts `path` read-only over itself, or returns nil when it cannot (not root).
    package init?(_ path: String) {
        self.path = path
        guard (try? ChildProcess.run("/bin/mount", ["--bind", path, path]))?.status == 0 else { return nil }
        guard (try? ChildProcess.run("/bin/mount", ["-o", "remount,ro,bind", path]))?.status == 0 else {
            _ = try? ChildProcess.run("/bin/umount", [path])
            return nil
        }
    }

    /// The files under `path`: name, mode, size and modification time of each, sorted (what a read-only look must
    /// leave as it was).
    package static func listing(_ path: String) throws -> [String] {
        let e = FileManager.default.enumerator(atPath: path)
        var out: [String] = []
        while let f = e?.nextObject() as? String {
            let a = try FileManager.default.attributesOfItem(atPath: path + "/" + f)
            out.append("\(f) \(a[.posixPermissions] ?? 0) \(a[.size] ?? 0) \((a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        }
        return out.sorted()
    }

    /// Unmounted lazily: a file still open under it (a map not yet let go) does not keep the mount.
    deinit {
        _ = try? ChildProcess.run("/bin/umount", ["-l", path])
    }
}
