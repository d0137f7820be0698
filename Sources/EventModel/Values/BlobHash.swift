/// The SHA-256 of a blob's raw bytes: its key in the content-addressed blob store.
public struct BlobHash: Hashable, Sendable, BinaryField, CustomStringConvertible {
    // The digest is held inline, its 32 bytes in order in four words, not in an array: every `EmailReceived`
    // carries one, and an array was one more heap object to make when the event is decoded, to retain when it is
    // copied and to free.
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The 32 digest bytes.
    public var bytes: [UInt8] { Swift.withUnsafeBytes(of: words) { Array($0) } }

    /// Creates a hash from 32 digest bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        words = bytes.withUnsafeBytes(BlobHash.words)
    }

    /// Creates a hash from the 32 bytes of `digest` (which must hold exactly 32).
    init(digest: UnsafeRawBufferPointer) {
        words = BlobHash.words(digest)
    }

    /// The four words of the 32 bytes of `digest`, in order.
    private static func words(_ digest: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64) {
        precondition(digest.count == 32)
        return (digest.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                digest.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                digest.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Calls `body` with the 32 digest bytes, without an array.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }

    public static func == (a: BlobHash, b: BlobHash) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
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
        words = out.withUnsafeBytes(BlobHash.words)
    }

    /// Lowercase hex.
    public var hex: String { withUnsafeBytes { Hex.lowercase($0) } }

    public var description: String { hex }

    @usableFromInline package func write(to w: inout ByteWriter) { withUnsafeBytes { w.writeRaw($0) } }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        self.init(digest: try r.readRaw(32))
    }
}
