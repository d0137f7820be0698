/// A 128-bit event identifier, also the event's idempotency key.
///
/// Fresh ids are UUIDv7 (time-ordered, so the id index grows mostly at its end); facts that must be
/// appended once however often they are observed (a message seen by two imports) use ids derived from
/// their natural key (see `EventID(digest:)`).
public struct EventID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The high 64 bits, as they appear first in the canonical form.
    public var high: UInt64
    /// The low 64 bits.
    public var low: UInt64

    /// Creates an id from its two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Creates an id from the first 16 bytes of a digest (or any 16+ bytes), marked as a UUIDv8.
    public init<C: Collection>(digest: C) where C.Element == UInt8 {
        var raw = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &raw) { dst in
            // Contiguous bytes (an array, a slice of one: every caller) copied at once; this generic init is not
            // specialized for its callers in other modules, where a walk of the collection costs a witness call a byte.
            let copied: Void? = digest.withContiguousStorageIfAvailable { src in
                dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(src).prefix(16)))
            }
            guard copied == nil else { return }
            var i = 0
            for b in digest {
                if i == 16 { break }
                dst[i] = b
                i += 1
            }
        }
        var h = UInt64(bigEndian: raw.0), l = UInt64(bigEndian: raw.1)
        // version 8 (custom), RFC 9562 variant
        h = (h & ~0xF000) | 0x8000
        l = (l & ~(0xC000_0000_0000_0000)) | 0x8000_0000_0000_0000
        self.init(high: h, low: l)
    }

    /// A new time-ordered UUIDv7 for `now`, with random low bits.
    public static func generate(now: Timestamp = .now) -> EventID {
        var rng = SystemRandomNumberGenerator()
        let ms = UInt64(max(0, now.microseconds / 1000)) & 0xFFFF_FFFF_FFFF
        let randA = rng.next() & 0xFFF
        let high = ms << 16 | 0x7000 | randA
        let low = (rng.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return EventID(high: high, low: low)
    }

    /// The 16 bytes, big-endian (canonical UUID byte order).
    public var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            out[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(i)))
            out[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(i)))
        }
        return out
    }

    /// Calls `body` with the 16 big-endian bytes, without allocating.
    @inlinable public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { try body($0) }
    }

    /// Reads 16 big-endian bytes.
    public init(bytes raw: UnsafeRawBufferPointer) {
        precondition(raw.count >= 16)
        let h = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        let l = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        self.init(high: UInt64(bigEndian: h), low: UInt64(bigEndian: l))
    }

    /// Parses the canonical `8-4-4-4-12` hex form (dashes optional).
    public init?(_ text: String) {
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(32)
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "-"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        guard nibbles.count == 32 else { return nil }
        var h: UInt64 = 0, l: UInt64 = 0
        for i in 0..<16 { h = h << 4 | UInt64(nibbles[i]) }
        for i in 16..<32 { l = l << 4 | UInt64(nibbles[i]) }
        self.init(high: h, low: l)
    }

    public static func < (a: EventID, b: EventID) -> Bool { (a.high, a.low) < (b.high, b.low) }

    /// The canonical lowercase `8-4-4-4-12` form.
    public var description: String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension EventID: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) {
        writer.writeFixed(high.bigEndian)
        writer.writeFixed(low.bigEndian)
    }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        let h: UInt64 = try reader.readFixed()
        let l: UInt64 = try reader.readFixed()
        self.init(high: UInt64(bigEndian: h), low: UInt64(bigEndian: l))
    }
}
