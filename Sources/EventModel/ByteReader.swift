/// A bounds-checked cursor over borrowed bytes, the reading side of `ByteWriter`.
///
/// A reader never outlives the memory it reads: use it inside `withUnsafeBytes` or inside the LMDB
/// transaction that owns the bytes. Every read past the end throws `DecodeError.truncated`.
@usableFromInline package struct ByteReader {
    @usableFromInline let base: UnsafeRawBufferPointer
    @usableFromInline var _offset: Int
    /// The offset of the next byte to read.
    @inlinable package var offset: Int { _offset }

    /// Creates a reader over `buffer`, starting at `offset`.
    @usableFromInline package init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        base = buffer
        _offset = offset
    }

    /// The number of bytes not read yet.
    @inlinable package var remaining: Int { base.count - offset }

    /// True when every byte was read.
    @inlinable package var isAtEnd: Bool { offset >= base.count }

    @inline(__always) @inlinable mutating func need(_ n: Int) throws(DecodeError) {
        if n < 0 || n > base.count - offset { throw DecodeError.truncated(at: offset) }
    }

    /// Reads one byte.
    @inline(__always) @inlinable package mutating func readByte() throws(DecodeError) -> UInt8 {
        try need(1)
        let b = base[offset]
        _offset += 1
        return b
    }

    /// Reads a fixed-width little-endian integer.
    @inline(__always) @inlinable package mutating func readFixed<T: FixedWidthInteger>(_: T.Type = T.self) throws(DecodeError) -> T {
        let size = MemoryLayout<T>.size
        try need(size)
        let v = base.loadUnaligned(fromByteOffset: offset, as: T.self)
        _offset += size
        return T(littleEndian: v)
    }

    /// Reads an unsigned LEB128 varint of at most ten bytes.
    @inline(__always) @inlinable package mutating func readVarint() throws(DecodeError) -> UInt64 {
        // One byte (every length under 128, most counts and flags: 37 varints an event on the bench log) without
        // the loop: a typed scan's instructions -4% (callgrind).
        if _offset < base.count {
            let b = base[_offset]
            if b < 0x80 {
                _offset += 1
                return UInt64(b)
            }
        }
        return try readLongVarint()
    }

    /// `readVarint` past its one-byte case.
    ///
    /// Reads the bytes where they are, one bound check each, the offset moved once at the end (through `readByte`,
    /// each byte was a call that checked and moved it: 3% of a typed scan's instructions, callgrind).
    @usableFromInline mutating func readLongVarint() throws(DecodeError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var i = _offset
        let end = base.count
        while i < end {
            let b = base[i]
            i += 1
            if shift == 63 && b > 1 { throw DecodeError.malformed("varint overflows 64 bits", at: i - 1) }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 {
                _offset = i
                return result
            }
            shift += 7
            if shift > 63 { throw DecodeError.malformed("varint longer than 10 bytes", at: i - 1) }
        }
        throw DecodeError.truncated(at: end)
    }

    /// Reads a zig-zag encoded signed varint.
    @inlinable package mutating func readSignedVarint() throws(DecodeError) -> Int64 {
        let u = try readVarint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// Reads a length (varint) and checks it fits in what remains.
    @inline(__always) @inlinable package mutating func readLength() throws(DecodeError) -> Int {
        let n = try readVarint()
        guard n <= UInt64(remaining) else { throw DecodeError.truncated(at: offset) }
        return Int(n)
    }

    /// Reads `count` raw bytes as a borrowed slice of the underlying buffer.
    @inline(__always) @inlinable package mutating func readRaw(_ count: Int) throws(DecodeError) -> UnsafeRawBufferPointer {
        try need(count)
        let slice = UnsafeRawBufferPointer(rebasing: base[offset..<offset + count])
        _offset += count
        return slice
    }

    /// Reads a length-prefixed byte string, copied.
    @inlinable package mutating func readBytes() throws(DecodeError) -> [UInt8] {
        let n = try readLength()
        return Array(try readRaw(n))
    }

    /// Reads a length-prefixed UTF-8 string (invalid UTF-8 is repaired with U+FFFD).
    @inline(__always) @inlinable package mutating func readString() throws(DecodeError) -> String {
        let n = try readLength()
        let raw = try readRaw(n)
        return String(decoding: raw, as: UTF8.self)
    }

    /// Steps over a length-prefixed string (or byte string) without making it.
    @inlinable package mutating func skipString() throws(DecodeError) {
        _ = try readRaw(readLength())
    }

    /// Reads any `BinaryField` value.
    @inlinable package mutating func read<T: BinaryField>(_: T.Type = T.self) throws(DecodeError) -> T {
        try T(from: &self)
    }
}
