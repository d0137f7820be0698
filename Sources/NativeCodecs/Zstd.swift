import CZstd

/// zstd compression with reusable contexts.
///
/// Not thread-safe: give each thread its own instance.
package final class Zstd {
    let cctx: OpaquePointer
    let dctx: OpaquePointer
    /// The compression level used by `compress`.
    package let level: Int32

    /// Creates compression and decompression contexts.
    package init(level: Int32 = 3) throws {
        guard let c = ZSTD_createCCtx() else { throw NativeCodecError.zstd("ZSTD_createCCtx failed: out of memory") }
        guard let d = ZSTD_createDCtx() else {
            ZSTD_freeCCtx(c)
            throw NativeCodecError.zstd("ZSTD_createDCtx failed: out of memory")
        }
        cctx = c
        dctx = d
        self.level = level
    }

    deinit {
        ZSTD_freeCCtx(cctx)
        ZSTD_freeDCtx(dctx)
    }

    /// The worst-case compressed size of `n` bytes.
    package static func bound(_ n: Int) -> Int { ZSTD_compressBound(n) }

    /// Compresses `input` into `output` (at least `bound(input.count)` bytes); returns the size written.
    package func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        let rc = ZSTD_compressCCtx(cctx, output.baseAddress, output.count, input.baseAddress, input.count, level)
        if ZSTD_isError(rc) != 0 { throw NativeCodecError.zstd(String(cString: ZSTD_getErrorName(rc))) }
        return rc
    }

    /// Compresses `input`. The output's room (the worst case, a little over `input.count`) is not filled first: only
    /// the pages the compressed bytes take become resident (zeroing it had made a 60 MB message's whole bound resident
    /// while it was compressed to 16 MB).
    package func compress(_ input: UnsafeRawBufferPointer) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: Zstd.bound(input.count)) { out, count in
            count = try compress(input, into: UnsafeMutableRawBufferPointer(out))
        }
    }

    /// The most one compressed byte can expand to: a zstd block of at most 128 KiB takes at least
    /// 4 bytes (an RLE block: 3 header bytes and the byte repeated).
    package static let maxExpansion = 32_768

    /// Throws unless `input` is a zstd frame that can expand to `expectedSize` bytes: the content size the frame
    /// declares (when it declares one) is `expectedSize`, and `expectedSize` is at most what `input` can expand to
    /// (``maxExpansion`` a byte). What every decompression checks before it allocates its output.
    static func checkExpansion(_ input: UnsafeRawBufferPointer, expectedSize: Int) throws(NativeCodecError) {
        let declared = ZSTD_getFrameContentSize(input.baseAddress, input.count)
        if declared == mailstore_zstd_contentsize_error() {
            throw NativeCodecError.corruptCompressedData("not a zstd frame")
        }
        if declared != mailstore_zstd_contentsize_unknown(), declared != UInt64(max(0, expectedSize)) {
            throw NativeCodecError.corruptCompressedData("the frame holds \(declared) bytes, expected \(expectedSize)")
        }
        guard expectedSize >= 0, expectedSize / Zstd.maxExpansion <= input.count else {
            throw NativeCodecError.corruptCompressedData("\(input.count) compressed bytes cannot expand to \(expectedSize)")
        }
    }

    /// Decompresses `input`, which must expand to exactly `expectedSize` bytes.
    ///
    /// `expectedSize` comes from a record or blob header that may be corrupt, so it is checked before the
    /// output is allocated: against the content size the zstd frame declares, and against what `input`
    /// can expand to at most (``maxExpansion``).
    package func decompress(_ input: UnsafeRawBufferPointer, expectedSize: Int) throws -> [UInt8] {
        try Zstd.checkExpansion(input, expectedSize: expectedSize)
        var out = [UInt8](repeating: 0, count: expectedSize)
        let rc = out.withUnsafeMutableBytes { o in
            ZSTD_decompressDCtx(dctx, o.baseAddress, o.count, input.baseAddress, input.count)
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
