/// An append-only byte buffer for the compact binary event encoding.
///
/// Integers are little-endian; lengths and counts are unsigned LEB128 varints.
@usableFromInline package struct ByteWriter: Sendable {
    @usableFromInline var _bytes: [UInt8]
    /// The bytes written so far.
    @inlinable package var bytes: [UInt8] { _bytes }

    /// Creates an empty writer with room for `capacity` bytes.
    @usableFromInline package init(capacity: Int = 256) {
        _bytes = []
        _bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    @usableFromInline package var count: Int { _bytes.count }

    /// Removes everything written, keeping the buffer's capacity.
    @usableFromInline package mutating func removeAll() { _bytes.removeAll(keepingCapacity: true) }

    /// Calls `body` with the bytes written so far, without copying them.
    @inlinable package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try _bytes.withUnsafeBytes(body)
    }

    /// Appends one byte.
    @inlinable package mutating func writeByte(_ value: UInt8) { _bytes.append(value) }

    /// Appends a fixed-width little-endian integer.
    @inlinable package mutating func writeFixed<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { _bytes.append(contentsOf: $0) }
    }

    /// Appends an unsigned LEB128 varint.
    @inlinable package mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            _bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        _bytes.append(UInt8(v))
    }

    /// Appends a zig-zag encoded signed varint.
    @inlinable package mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends raw bytes with no length prefix.
    @inlinable package mutating func writeRaw<C: Collection>(_ raw: C) where C.Element == UInt8 {
        _bytes.append(contentsOf: raw)
    }

    /// Appends a length-prefixed byte string.
    @inlinable package mutating func writeBytes<C: Collection>(_ raw: C) where C.Element == UInt8 {
        writeVarint(UInt64(raw.count))
        _bytes.append(contentsOf: raw)
    }

    /// Appends a length-prefixed UTF-8 string.
    @inlinable package mutating func writeString(_ value: String) {
        // A native string's bytes are read where they are; `withUTF8` needs a mutable copy, whose retain
        // and release were a tenth of an append's encoding in the log bench's profile.
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            writeVarint(UInt64(utf8.count))
            _bytes.append(contentsOf: utf8)
        }
        if done != nil { return }
        var s = value
        s.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            _bytes.append(contentsOf: utf8)
        }
    }

    /// Appends any `BinaryField` value.
    @inlinable package mutating func write<T: BinaryField>(_ value: T) { value.write(to: &self) }
}
