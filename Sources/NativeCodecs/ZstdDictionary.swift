import CZstd

/// A zstd dictionary, digested once for compression (at a fixed level) and for decompression.
///
/// The digested forms are read-only after creation, and zstd allows sharing them between threads, so one
/// instance serves every thread; each thread still brings its own `Zstd` contexts.
package final class ZstdDictionary: @unchecked Sendable {
    /// The dictionary's bytes (as trained).
    package let bytes: [UInt8]
    /// The compression level baked into the digested compression form.
    package let level: Int32
    let cdict: OpaquePointer
    let ddict: OpaquePointer

    /// The largest dictionary accepted (zstd's default training size is 110 KiB).
    package static let maxSize = 1 << 20

    /// Digests `bytes` (a dictionary trained by `train`, or any zstd dictionary).
    package init(bytes: [UInt8], level: Int32 = 3) throws {
        guard !bytes.isEmpty, bytes.count <= ZstdDictionary.maxSize else {
            throw NativeCodecError.zstd("a dictionary of \(bytes.count) bytes (must be 1...\(ZstdDictionary.maxSize))")
        }
        let c = bytes.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, level) }
        guard let c else { throw NativeCodecError.zstd("ZSTD_createCDict failed: not a usable dictionary or out of memory") }
        let d = bytes.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) }
        guard let d else {
            ZSTD_freeCDict(c)
            throw NativeCodecError.zstd("ZSTD_createDDict failed: not a usable dictionary or out of memory")
        }
        self.bytes = bytes
        self.level = level
        cdict = c
        ddict = d
    }

    deinit {
        ZSTD_freeCDict(cdict)
        ZSTD_freeDDict(ddict)
    }

    /// Trains a dictionary of at most `capacity` bytes on `samples`: zstd's fastCover trainer with fixed parameters
    /// (`mailstore_zdict_train`: as good as `ZDICT_trainFromBuffer`'s search of four on mail, a fifth of its CPU), on
    /// the calling thread. Returns nil when the samples do not make a dictionary (too few, too small or too alike).
    package static func train(samples: [[UInt8]], capacity: Int) -> [UInt8]? {
        guard samples.count >= 8, capacity >= 256, capacity <= maxSize else { return nil }
        var joined: [UInt8] = []
        joined.reserveCapacity(samples.reduce(0) { $0 + $1.count })
        for s in samples { joined += s }
        let sizes = samples.map { Int($0.count) }
        var dict = [UInt8](repeating: 0, count: capacity)
        let rc = dict.withUnsafeMutableBytes { d in
            joined.withUnsafeBytes { src in
                sizes.withUnsafeBufferPointer { sz in
                    mailstore_zdict_train(d.baseAddress, d.count, src.baseAddress, sz.baseAddress, UInt32(sz.count))
                }
            }
        }
        if ZDICT_isError(rc) != 0 || rc == 0 { return nil }
        dict.removeLast(capacity - rc)
        return dict
    }
}

extension Zstd {
    /// Compresses `input` with `dictionary` (at the dictionary's level), into room not filled first (as `compress(_:)`).
    package func compress(_ input: UnsafeRawBufferPointer, dictionary: ZstdDictionary) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: Zstd.bound(input.count)) { out, count in
            let rc = ZSTD_compress_usingCDict(cctx, out.baseAddress, out.count, input.baseAddress, input.count, dictionary.cdict)
            if ZSTD_isError(rc) != 0 {
                count = 0
                throw NativeCodecError.zstd(String(cString: ZSTD_getErrorName(rc)))
            }
            count = rc
        }
    }

    /// Decompresses `input` made with `dictionary`; it must expand to exactly `expectedSize` bytes, checked as
    /// `decompress(_:expectedSize:)` checks it before the output is allocated (a corrupt size would otherwise
    /// allocate up to the blob header's bound, 16 GiB).
    package func decompress(_ input: UnsafeRawBufferPointer, expectedSize: Int, dictionary: ZstdDictionary) throws -> [UInt8] {
        try Zstd.checkExpansion(input, expectedSize: expectedSize)
        var out = [UInt8](repeating: 0, count: expectedSize)
        let rc = out.withUnsafeMutableBytes { o in
            ZSTD_decompress_usingDDict(dctx, o.baseAddress, o.count, input.baseAddress, input.count, dictionary.ddict)
        }
        if ZSTD_isError(rc) != 0 {
            throw NativeCodecError.corruptCompressedData(String(cString: ZSTD_getErrorName(rc)))
        }
        guard rc == expectedSize else {
            throw NativeCodecError.corruptCompressedData("expanded to \(rc) bytes, expected \(expectedSize)")
        }
        return out
    }
}
