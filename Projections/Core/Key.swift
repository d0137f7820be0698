import Glibc

/// Builds ordered byte keys from parts: strings are written with a 0 terminator (so `a` sorts before
/// `ab`), integers big-endian (so numbers sort numerically).
///
/// Every key is bounded whatever the content: a string part longer than `maxPartBytes` is cut (at a
/// character boundary) and ends in a marker and a 64-bit hash of the whole part, so it stays unique in
/// practice, keeps sorting by its beginning, and decodes (with `KeyReader`) to a string that encodes back
/// to the same bytes. With at most `maxStringParts` string parts and two integers, a key stays under
/// LMDB's 511-byte limit, so no mail, server or argument can make a fold fail with `MDB_BAD_VALSIZE`.
package struct Key {
    /// The most bytes a string part takes (its terminator excluded).
    package static let maxPartBytes = 96
    /// How many bytes of a long part are kept before its hash.
    static let keptBytes = maxPartBytes - 1 - 16
    /// The marker between the kept beginning of a long part and its hash (a control character that a
    /// bounded part carries and a short one, in practice, does not).
    static let hashMarker: UInt8 = 0x1F

    /// The bytes so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty key.
    package init() {}

    /// A key from string parts.
    package init(_ parts: String...) {
        bytes.reserveCapacity(parts.reduce(parts.count) { $0 + min($1.utf8.count, Key.maxPartBytes) } + 16)
        for p in parts { string(p) }
    }

    // One, two and three parts (most keys) without the variadic form's array of parts: the same bytes.

    /// A key from one string part.
    package init(_ a: String) {
        bytes.reserveCapacity(min(a.utf8.count, Key.maxPartBytes) + 17)
        string(a)
    }

    /// A key from two string parts.
    package init(_ a: String, _ b: String) {
        bytes.reserveCapacity(min(a.utf8.count, Key.maxPartBytes) + min(b.utf8.count, Key.maxPartBytes) + 18)
        string(a)
        string(b)
    }

    /// A key from three string parts.
    package init(_ a: String, _ b: String, _ c: String) {
        bytes.reserveCapacity(min(a.utf8.count, Key.maxPartBytes) + min(b.utf8.count, Key.maxPartBytes)
                              + min(c.utf8.count, Key.maxPartBytes) + 19)
        string(a)
        string(b)
        string(c)
    }

    /// Appends a string part (its UTF-8 bytes, then a 0 byte; 0 bytes inside become 1; a part over
    /// `maxPartBytes` is bounded as described above).
    @discardableResult package mutating func string(_ s: String) -> Key {
        var s = s
        s.withUTF8 { Key.appendBounded($0, to: &bytes) }
        bytes.append(0)
        return self
    }

    /// The lead byte of the views' own folder parts (`FolderPart`): never in UTF-8, so no path's part starts with it
    /// (nor a bounded one's: its kept beginning is UTF-8, its marker 0x1F and its hash hex digits).
    static let ownPartLead: UInt8 = 0xFF

    /// Appends a folder part: a path as `string(_:)` writes it; one of the views' own parts as the lead byte 0xFF, its
    /// ASCII name and a 0 terminator (what `KeyReader.string()` skips as one part).
    @discardableResult package mutating func folder(_ part: FolderPart) -> Key {
        if case .path(let p) = part { return string(p) }
        bytes.append(Key.ownPartLead)
        part.ownName.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0)
        return self
    }

    /// Appends a string part given as its UTF-8 bytes: the same bytes as `string(_:)` for that string.
    @discardableResult package mutating func string(utf8 part: UnsafeBufferPointer<UInt8>) -> Key {
        Key.appendBounded(part, to: &bytes)
        bytes.append(0)
        return self
    }

    /// Whether key `a` sorts before key `b` (byte order, as LMDB orders keys): `memcmp`, where the generic
    /// `lexicographicallyPrecedes` compares element by element.
    package static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in order(x, y) < 0 } }
    }

    /// The byte order of `a` and `b` (negative, zero or positive; the shorter first when one starts the other):
    /// how LMDB orders keys, and how the contacts view orders addresses wherever it ranks them.
    package static func order(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
        return order != 0 ? order : a.count - b.count
    }

    /// The bounded form of `s` as a key part (what `KeyReader.string()` returns for it).
    package static func bounded(_ s: String) -> String {
        var s = s
        if s.utf8.count <= maxPartBytes && !s.utf8.contains(0) { return s }
        var out: [UInt8] = []
        s.withUTF8 { appendBounded($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendBounded(_ part: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        let start = bytes.count
        if part.count <= maxPartBytes {
            bytes.append(contentsOf: part)
            // (`memchr`: most parts hold no 0 byte, found without a walk of the slice element by element.)
            if part.count == 0 || memchr(part.baseAddress!, 0, part.count) == nil { return }
        } else {
            // Cut at a character boundary (never before a continuation byte), then marker and hash.
            var cut = keptBytes
            while cut > 0 && part[cut] & 0xC0 == 0x80 { cut -= 1 }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: part[0..<cut]))
            bytes.append(hashMarker)
            var h = fnv1a(part)
            let hex = Array("0123456789abcdef".utf8)
            for _ in 0..<16 {
                bytes.append(hex[Int(h >> 60)])
                h <<= 4
            }
        }
        if bytes[start...].contains(0) {
            for i in start..<bytes.count where bytes[i] == 0 { bytes[i] = 1 }
        }
    }

    /// FNV-1a, 64 bits: deterministic across runs and machines (Swift's `Hasher` is seeded per process).
    package static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    /// Appends a big-endian UInt64.
    @discardableResult package mutating func uint64(_ v: UInt64) -> Key {
        for i in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: v >> (UInt64(i) * 8))) }
        return self
    }

    /// Appends an Int64 so that it sorts numerically (sign bit flipped).
    @discardableResult package mutating func int64(_ v: Int64) -> Key {
        uint64(UInt64(bitPattern: v) ^ (1 << 63))
    }

    /// Appends an Int64 so that larger values sort first (for newest-first indexes).
    @discardableResult package mutating func descending(_ v: Int64) -> Key {
        uint64(~(UInt64(bitPattern: v) ^ (1 << 63)))
    }
}

/// Reads keys built by `Key`.
package struct KeyReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// A reader over `bytes`.
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next string part (for a bounded part, its bounded form).
    package mutating func string() -> String {
        var end = offset
        while end < bytes.count && bytes[end] != 0 { end += 1 }
        let s = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = min(bytes.count, end + 1)
        return s
    }

    /// The next big-endian UInt64.
    package mutating func uint64() -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 where offset < bytes.count {
            v = v << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return v
    }

    /// The next descending Int64.
    package mutating func descending() -> Int64 {
        Int64(bitPattern: ~uint64() ^ (1 << 63))
    }
}
