/// A stream's version and last sequence, as stored in the `streams` database (16 bytes, LE).
struct StreamState {
    var version: UInt64 = 0
    var lastSequence: UInt64 = 0

    init() {}

    init(_ raw: UnsafeRawBufferPointer) {
        if raw.count >= 16 {
            version = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            lastSequence = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    var encoded: [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        out.withUnsafeMutableBytes {
            $0.storeBytes(of: version.littleEndian, toByteOffset: 0, as: UInt64.self)
            $0.storeBytes(of: lastSequence.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        return out
    }
}
