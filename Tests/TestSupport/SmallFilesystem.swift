import Foundation
import Glibc

/// A small tmpfs mounted on a fresh folder for disk-full tests (needs root, or the capability to mount),
/// unmounted and removed when released. `fill(leaving:)` takes the free space down to a few bytes with a
/// filler file; `free()` removes the filler.
package final class SmallFilesystem {
    /// The mount point.
    package let path: String
    private var filler: String { path + "/.filler" }

    /// Mounts a tmpfs of `megabytes` MiB (with at most `inodes` files and folders, its root among them, when given), or
    /// throws `TestServerError` saying why it cannot (the test then skips).
    package init(megabytes: Int, inodes: Int? = nil) throws {
        path = NSTemporaryDirectory() + "mailstore-smallfs-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m,mode=0700" + (inodes.map { ",nr_inodes=\($0)" } ?? "")) != 0 {
            let why = String(cString: strerror(errno))
            rmdir(path)
            throw TestServerError("cannot mount a \(megabytes) MiB tmpfs (\(why)): disk-full tests need root or CAP_SYS_ADMIN")
        }
    }

    deinit {
        umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }

    /// The free bytes.
    package var freeBytes: Int {
        var st = statvfs()
        guard statvfs(path, &st) == 0 else { return 0 }
        return Int(st.f_bavail) * Int(st.f_frsize)
    }

    /// Writes a filler file so that about `bytes` stay free.
    package func fill(leaving bytes: Int) throws {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw TestServerError("cannot create \(filler): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x55, count: 64 << 10)
        while freeBytes > bytes {
            let n = min(chunk.count, freeBytes - bytes)
            guard chunk.withUnsafeBytes({ write(fd, $0.baseAddress, n) }) == n else { break }
        }
    }

    /// Removes the filler file.
    package func free() { unlink(filler) }
}
