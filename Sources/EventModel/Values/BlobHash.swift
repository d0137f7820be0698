/// The SHA-256 of a blob's raw bytes: its key in the content-addressed blob store.
public struct BlobHash: Hashable, Sendable, BinaryField, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Creates a hash from 32 digest bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hex digits.
    public init?(hex: String) {
        let u = Array(hex.utf8)
        guard u.count == 64 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        func nib(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        var i = 0
        while i < 64 {
            guard let h = nib(u[i]), let l = nib(u[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        bytes = out
    }

    /// Lowercase hex.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    @usableFromInline package func write(to w: inout ByteWriter) { w.writeRaw(bytes) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        bytes = Array(try r.readRaw(32))
    }
}
