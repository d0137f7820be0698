import CZstd
import Foundation

/// Whole files streamed through zstd in 1 MiB pieces (the views' snapshots): memory stays bounded
/// whatever the file's size, and the output is a standard zstd frame (`zstd -d` reads it).
package enum ZstdFile {
    /// The piece read or written at a time.
    static let chunk = 1 << 20

    /// Compresses `source` into `target` (created 0600, must not exist) at `level`; returns the bytes written.
    /// `transform`, when given, may change each piece read before it is compressed (the file itself is not
    /// changed): pieces are whole `chunk`s of the file in order, 1 MiB (a multiple of any page size), except the last.
    @discardableResult
    package static func compress(_ source: String, to target: String, level: Int32 = 1,
                                 transform: ((UnsafeMutableRawBufferPointer) -> Void)? = nil) throws -> Int {
        let input = try openFile(source, O_RDONLY)
        defer { close(input) }
        let output = try openFile(target, O_WRONLY | O_CREAT | O_EXCL)
        defer { close(output) }
        guard let cctx = ZSTD_createCCtx() else { throw NativeCodecError.zstd("ZSTD_createCCtx failed: out of memory") }
        defer { ZSTD_freeCCtx(cctx) }
        try check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level))
        var inBuf = [UInt8](repeating: 0, count: chunk), outBuf = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
        var written = 0
        while true {
            let n = try readFull(input, &inBuf, source)
            if let transform, n > 0 { inBuf.withUnsafeMutableBytes { transform(UnsafeMutableRawBufferPointer(rebasing: $0[..<n])) } }
            let mode = n == 0 ? ZSTD_e_end : ZSTD_e_continue
            var finished = false
            try inBuf.withUnsafeBytes { i in
                var zin = ZSTD_inBuffer(src: i.baseAddress, size: n, pos: 0)
                repeat {
                    let (remaining, produced) = try outBuf.withUnsafeMutableBytes { o -> (Int, Int) in
                        var zout = ZSTD_outBuffer(dst: o.baseAddress, size: o.count, pos: 0)
                        let r = ZSTD_compressStream2(cctx, &zout, &zin, mode)
                        try check(r)
                        return (r, zout.pos)
                    }
                    try writeAll(output, outBuf, produced, target)
                    written += produced
                    finished = mode == ZSTD_e_end ? remaining == 0 : zin.pos == zin.size
                } while !finished
            }
            if n == 0 { break }
        }
        guard fsync(output) == 0 else { throw NativeCodecError.io(target, String(cString: strerror(errno))) }
        return written
    }

    /// Decompresses `source` into `target` (created 0600, must not exist); refuses (and stops at) more than
    /// `limit` bytes of output, and a file that ends inside a frame. Returns the bytes written.
    @discardableResult
    package static func decompress(_ source: String, to target: String, limit: Int) throws -> Int {
        let input = try openFile(source, O_RDONLY)
        defer { close(input) }
        let output = try openFile(target, O_WRONLY | O_CREAT | O_EXCL)
        defer { close(output) }
        guard let dctx = ZSTD_createDCtx() else { throw NativeCodecError.zstd("ZSTD_createDCtx failed: out of memory") }
        defer { ZSTD_freeDCtx(dctx) }
        var inBuf = [UInt8](repeating: 0, count: chunk), outBuf = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        var written = 0
        var lastHint = 1
        while true {
            let n = try readFull(input, &inBuf, source)
            if n == 0 { break }
            try inBuf.withUnsafeBytes { i in
                var zin = ZSTD_inBuffer(src: i.baseAddress, size: n, pos: 0)
                while zin.pos < zin.size {
                    let produced = try outBuf.withUnsafeMutableBytes { o -> Int in
                        var zout = ZSTD_outBuffer(dst: o.baseAddress, size: o.count, pos: 0)
                        let r = ZSTD_decompressStream(dctx, &zout, &zin)
                        try check(r)
                        lastHint = r
                        return zout.pos
                    }
                    written += produced
                    if written > limit { throw NativeCodecError.corruptCompressedData("\(source) expands past \(limit) bytes") }
                    try writeAll(output, outBuf, produced, target)
                }
            }
        }
        if lastHint != 0 { throw NativeCodecError.corruptCompressedData("\(source) ends inside a zstd frame") }
        return written
    }

    static func check(_ rc: Int) throws {
        if ZSTD_isError(rc) != 0 { throw NativeCodecError.zstd(String(cString: ZSTD_getErrorName(rc))) }
    }

    static func openFile(_ path: String, _ flags: Int32) throws -> Int32 {
        let fd = open(path, flags | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw NativeCodecError.io(path, String(cString: strerror(errno))) }
        return fd
    }

    /// Reads until `buf` is full or the file ends; returns the bytes read (fewer than `buf.count` only at the end).
    static func readFull(_ fd: Int32, _ buf: inout [UInt8], _ path: String) throws -> Int {
        var filled = 0
        while filled < buf.count {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw NativeCodecError.io(path, String(cString: strerror(errno)))
            }
            filled += n
        }
        return filled
    }

    static func writeAll(_ fd: Int32, _ buf: [UInt8], _ count: Int, _ path: String) throws {
        var done = 0
        while done < count {
            let n = buf.withUnsafeBytes { write(fd, $0.baseAddress! + done, count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw NativeCodecError.io(path, String(cString: strerror(errno)))
            }
            done += n
        }
    }
}
