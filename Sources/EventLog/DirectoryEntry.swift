import Glibc

/// Reading a `readdir` entry's name where it lies.
///
/// `struct dirent` declares `d_name` as 256 bytes, but `readdir` packs entries into its buffer at their own length
/// (`d_reclen`): `entry.pointee.d_name` copies 256 bytes and, for the buffer's last short entry, reads past the end
/// of the allocation (AddressSanitizer: a heap-buffer-overflow in an import's folder listing). The name is read
/// through a pointer to the field instead, up to its terminating NUL, which lies inside the entry.
package enum DirectoryEntry {
    /// Where the name lies in an entry.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The name bytes of `entry` (without the NUL), valid until the next `readdir` or `closedir` of its stream.
    package static func name(_ entry: UnsafeMutablePointer<dirent>) -> UnsafeRawBufferPointer {
        let start = UnsafeRawPointer(entry) + nameOffset
        return UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }
}
