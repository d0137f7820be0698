/// An append-only byte buffer for the compact binary event encoding.
///
/// Integers are little-endian; lengths and counts are unsigned LEB128 varints.
///
/// The buffer is memory of its own, written through a pointer: a write checks room once and stores, where an
/// `[UInt8]` checked uniqueness and capacity for every byte appended (a varint byte by byte, a string through a
/// generic append): those were over half of an append's encoding in the log bench's profile. The writer is
/// noncopyable, so it owns its memory alone and frees it when it ends.
///
/// Bound: the buffer holds what its caller writes (it doubles as it fills); a count that would overflow `Int`
/// traps rather than wrapping. Callers bound what they write (an event's payload, a blob, a batch of changes).
@usableFromInline package struct ByteWriter: ~Copyable, @unchecked Sendable {
    @usableFromInline var base: UnsafeMutableRawPointer
    @usableFromInline var _count: Int
    @usableFromInline var capacity: Int

    /// Creates an empty writer with room for `capacity` bytes.
    @usableFromInline package init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
        _count = 0
    }

    deinit { base.deallocate() }

    /// The bytes written so far, copied into an array.
    @inlinable package var bytes: [UInt8] { [UInt8](UnsafeRawBufferPointer(start: base, count: _count)) }

    /// The number of bytes written so far.
    @inlinable package var count: Int { _count }

    /// Removes everything written, keeping the buffer's capacity.
    @inlinable package mutating func removeAll() { _count = 0 }

    /// Calls `body` with the bytes written so far, without copying them. The pointer is valid for the call only.
    @inlinable package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: _count))
    }

    /// Where the next `n` bytes go, growing the buffer first when they do not fit. The caller stores them and
    /// adds `n` to the count.
    @inlinable mutating func room(_ n: Int) -> UnsafeMutableRawPointer {
        if _slowPath(n > capacity &- _count) { grow(n) }
        return base + _count
    }

    /// Grows the buffer to hold `n` more bytes (at least doubling it).
    @usableFromInline mutating func grow(_ n: Int) {
        let (needed, overflow) = _count.addingReportingOverflow(n)
        precondition(!overflow && n >= 0, "ByteWriter: \(n) more bytes overflow the buffer's size")
        let newCapacity = Swift.max(needed, capacity <= Int.max / 2 ? capacity * 2 : Int.max)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        grown.copyMemory(from: base, byteCount: _count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Appends one byte.
    @inlinable package mutating func writeByte(_ value: UInt8) {
        room(1).storeBytes(of: value, as: UInt8.self)
        _count &+= 1
    }

    /// Appends a fixed-width little-endian integer.
    @inlinable package mutating func writeFixed<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        room(size).storeBytes(of: value.littleEndian, toByteOffset: 0, as: T.self)
        _count &+= size
    }

    /// Appends an unsigned LEB128 varint.
    @inlinable package mutating func writeVarint(_ value: UInt64) {
        let p = room(10)
        var v = value
        var i = 0
        while v >= 0x80 {
            p.storeBytes(of: UInt8(truncatingIfNeeded: v) | 0x80, toByteOffset: i, as: UInt8.self)
            v >>= 7
            i &+= 1
        }
        p.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
        _count &+= i &+ 1
    }

    /// Appends a zig-zag encoded signed varint.
    @inlinable package mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends the bytes at `raw` with no length prefix.
    @inlinable package mutating func writeRaw(_ raw: UnsafeRawBufferPointer) {
        guard let from = raw.baseAddress, raw.count > 0 else { return }
        room(raw.count).copyMemory(from: from, byteCount: raw.count)
        _count &+= raw.count
    }

    /// Appends raw bytes with no length prefix.
    @inlinable package mutating func writeRaw<C: Collection>(_ raw: C) where C.Element == UInt8 {
        let done: Void? = raw.withContiguousStorageIfAvailable { writeRaw(UnsafeRawBufferPointer($0)) }
        if done != nil { return }
        let n = raw.count
        let p = room(n)
        var i = 0
        for b in raw where i < n {
            p.storeBytes(of: b, toByteOffset: i, as: UInt8.self)
            i &+= 1
        }
        _count &+= i
    }

    /// Appends a length-prefixed byte string.
    @inlinable package mutating func writeBytes<C: Collection>(_ raw: C) where C.Element == UInt8 {
        writeVarint(UInt64(raw.count))
        writeRaw(raw)
    }

    /// Appends a length-prefixed UTF-8 string.
    @inlinable package mutating func writeString(_ value: String) {
        // A native string's bytes are read where they are; `withUTF8` needs a mutable copy, whose retain
        // and release were a tenth of an append's encoding in the log bench's profile.
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            writeVarint(UInt64(utf8.count))
            writeRaw(UnsafeRawBufferPointer(utf8))
        }
        if done != nil { return }
        var s = value
        s.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            writeRaw(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends any `BinaryField` value.
    @inlinable package mutating func write<T: BinaryField>(_ value: T) { value.write(to: &self) }
}
