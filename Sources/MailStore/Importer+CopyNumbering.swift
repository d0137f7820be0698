import EventLog
import Foundation
import Glibc

extension Importer {
    /// Numbers the identical copies of an mbox's messages (`SourceMessage.copy`): a message whose bytes came n - 1
    /// times before it in the file is copy n, exactly, however many messages the file holds, so every copy is a
    /// message of its own and the same file is numbered the same way every time (its ids derive from the numbers,
    /// whatever `memoryLimit`).
    ///
    /// A message is known by the first 8 bytes of its SHA-256 (two distinct messages sharing them, about one pair in
    /// 10^8 files of a million, only number their copies as one; each keeps its own hash in its ids). Up to
    /// `memoryLimit` distinct messages the table is in memory: a set of their keys and a count for each repeated one
    /// (~16 bytes a message with the set's room: ~16 MiB at the default 2^20, `Importer.Options.maxTrackedCopies`).
    /// Past that it moves whole to a file in the store's scratch folder (`ScratchFolder`, docs/operations.md), an
    /// open-addressing table of 16-byte slots (key, count) at most half full, read and written a slot at a time
    /// (`pread`, `pwrite`: the page cache holds it, not this process), doubled as it fills: at most 64 bytes of disk a
    /// distinct message (~64 MiB for a million), the memory freed. The file goes when the import ends; a killed
    /// import's goes with the next command that opens the store for writing.
    final class CopyNumbering {
        /// How many distinct messages are numbered in memory before the table moves to a file.
        let memoryLimit: Int
        private let store: StoreDirectory?
        private let notice: (String) -> Void
        private var seen = Set<UInt64>()
        private var repeats: [UInt64: Int] = [:]
        /// The table's file once it moved there.
        private var file: (fd: Int32, dir: String, capacity: Int, count: Int)?
        private var scratch: ScratchFolder?
        /// How many files the table had (each doubling makes the next).
        private var generation = 0

        /// Bytes of a slot: the key, then the count (0: empty).
        static let slotBytes = 16
        /// Bytes of the old file read at a time when the table doubles.
        static let rehashBlock = 1 << 16

        /// A numbering holding at most `memoryLimit` keys in memory; past it a file in `store`'s scratch folder
        /// (`$TMPDIR` where it cannot be written; nil: there), `notice` told where it went for want of room.
        init(memoryLimit: Int, store: StoreDirectory?, notice: @escaping (String) -> Void = { _ in }) {
            self.memoryLimit = max(0, memoryLimit)
            self.store = store
            self.notice = notice
        }

        deinit {
            if let file { close(file.fd) }
            scratch?.remove()
        }

        /// Whether the table moved to a file.
        var spilled: Bool { file != nil }

        /// The copy number of the next message whose key (its hash's first 8 bytes) is `key`: 1 for the first.
        func copy(of key: UInt64) throws -> Int {
            guard file == nil else { return try increment(key) }
            guard seen.insert(key).inserted else {
                let copy = repeats[key, default: 1] + 1
                repeats[key] = copy
                return copy
            }
            if seen.count > memoryLimit { try spill() }
            return 1
        }

        /// Moves the table to a file (a quarter full) and frees the memory's.
        private func spill() throws {
            let folder = ScratchFolder(store: store, kind: "import", notice: notice)
            scratch = folder
            let dir: String
            do { dir = try folder.path() } catch {
                throw CopyTableError(path: store.map { $0.path + "/" + ScratchFolder.folderName } ?? "$TMPDIR",
                                     what: "making a scratch folder in", why: "\(error)")
            }
            var capacity = 1024
            while capacity < seen.count * 4 { capacity *= 2 }
            let fd = try makeFile(dir, capacity: capacity)
            file = (fd, dir, capacity, seen.count)
            for key in seen {
                let (slot, _) = try find(key, fd: fd, capacity: capacity)
                try write(slot, key: key, count: repeats[key] ?? 1, fd: fd)
            }
            seen = []
            repeats = [:]
        }

        /// A new table file of `capacity` empty slots (sparse: the holes read as zeros) in `dir`.
        private func makeFile(_ dir: String, capacity: Int) throws -> Int32 {
            generation += 1
            let path = dir + "/copies.\(generation)"
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw CopyTableError(path: path, what: "creating", why: String(cString: strerror(errno))) }
            guard ftruncate(fd, off_t(capacity * CopyNumbering.slotBytes)) == 0 else {
                let why = String(cString: strerror(errno))
                close(fd)
                throw CopyTableError(path: path, what: "sizing", why: why)
            }
            return fd
        }

        /// Counts one more copy of `key` in the file's table; doubles the table when it is over half full.
        private func increment(_ key: UInt64) throws -> Int {
            guard var f = file else { preconditionFailure("the copy table is in memory") }
            let (slot, count) = try find(key, fd: f.fd, capacity: f.capacity)
            try write(slot, key: key, count: count + 1, fd: f.fd)
            if count == 0 {
                f.count += 1
                file = f
                if f.count * 2 > f.capacity { try grow() }
            }
            return count + 1
        }

        /// The slot holding `key` with its count, or the empty slot where it goes with 0 (linear probing from the
        /// slot its low bits name: they are a SHA-256's).
        private func find(_ key: UInt64, fd: Int32, capacity: Int) throws -> (slot: Int, count: Int) {
            var slot = Int(truncatingIfNeeded: key) & (capacity - 1)
            var pair: (UInt64, UInt64) = (0, 0)
            while true {
                let n = withUnsafeMutableBytes(of: &pair) { pread(fd, $0.baseAddress, CopyNumbering.slotBytes, off_t(slot * CopyNumbering.slotBytes)) }
                guard n == CopyNumbering.slotBytes else { throw failure("reading", n) }
                if pair.1 == 0 || pair.0 == key { return (slot, Int(pair.1)) }
                slot = (slot + 1) & (capacity - 1)
            }
        }

        private func write(_ slot: Int, key: UInt64, count: Int, fd: Int32) throws {
            var pair: (UInt64, UInt64) = (key, UInt64(count))
            let n = withUnsafeBytes(of: &pair) { pwrite(fd, $0.baseAddress, CopyNumbering.slotBytes, off_t(slot * CopyNumbering.slotBytes)) }
            guard n == CopyNumbering.slotBytes else { throw failure("writing", n) }
        }

        /// Copies the table into a file of twice the slots, read a block at a time, and removes the old one.
        private func grow() throws {
            guard let old = file else { return }
            let capacity = old.capacity * 2
            let fd = try makeFile(old.dir, capacity: capacity)
            file = (fd, old.dir, capacity, old.count)
            defer {
                close(old.fd)
                unlink(old.dir + "/copies.\(generation - 1)")
            }
            var block = [(UInt64, UInt64)](repeating: (0, 0), count: CopyNumbering.rehashBlock / CopyNumbering.slotBytes)
            var offset = 0
            let size = old.capacity * CopyNumbering.slotBytes
            while offset < size {
                let want = min(CopyNumbering.rehashBlock, size - offset)
                let n = block.withUnsafeMutableBytes { pread(old.fd, $0.baseAddress, want, off_t(offset)) }
                guard n == want else { throw failure("reading", n) }
                for (key, count) in block.prefix(want / CopyNumbering.slotBytes) where count != 0 {
                    let (slot, _) = try find(key, fd: fd, capacity: capacity)
                    try write(slot, key: key, count: Int(count), fd: fd)
                }
                offset += want
            }
        }

        /// The error for a read or write of the table's file that returned `n`.
        private func failure(_ what: String, _ n: Int) -> CopyTableError {
            let why = n < 0 ? String(cString: strerror(errno)) : "\(n) bytes where \(CopyNumbering.slotBytes) or more were due"
            return CopyTableError(path: (file?.dir ?? "") + "/copies.\(generation)", what: what, why: why)
        }
    }
}
