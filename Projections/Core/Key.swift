/// Builds ordered byte keys from parts: strings are written with a 0 terminator (so `a` sorts before
/// `ab`), integers big-endian (so numbers sort numerically).
public struct Key {
    /// The bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty key.
    public init() {}

    /// A key from string parts.
    public init(_ parts: String...) {
        for p in parts { string(p) }
    }

    /// Appends a string part (its UTF-8 bytes, then a 0 byte; 0 bytes inside become 1).
    @discardableResult public mutating func string(_ s: String) -> Key {
        let start = bytes.count
        bytes.append(contentsOf: s.utf8)
        if bytes[start...].contains(0) {
            for i in start..<bytes.count where bytes[i] == 0 { bytes[i] = 1 }
        }
        bytes.append(0)
        return self
    }

    /// Appends a big-endian UInt64.
    @discardableResult public mutating func uint64(_ v: UInt64) -> Key {
        for i in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: v >> (UInt64(i) * 8))) }
        return self
    }

    /// Appends an Int64 so that it sorts numerically (sign bit flipped).
    @discardableResult public mutating func int64(_ v: Int64) -> Key {
        uint64(UInt64(bitPattern: v) ^ (1 << 63))
    }

    /// Appends an Int64 so that larger values sort first (for newest-first indexes).
    @discardableResult public mutating func descending(_ v: Int64) -> Key {
        uint64(~(UInt64(bitPattern: v) ^ (1 << 63)))
    }
}

/// Reads keys built by `Key`.
public struct KeyReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// A reader over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next string part.
    public mutating func string() -> String {
        var end = offset
        while end < bytes.count && bytes[end] != 0 { end += 1 }
        let s = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = min(bytes.count, end + 1)
        return s
    }

    /// The next big-endian UInt64.
    public mutating func uint64() -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 where offset < bytes.count {
            v = v << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return v
    }

    /// The next descending Int64.
    public mutating func descending() -> Int64 {
        Int64(bitPattern: ~uint64() ^ (1 << 63))
    }
}
