import Glibc

extension Charsets {
    /// Converts `buffer` from `name` to UTF-8 with glibc iconv. Invalid
    /// sequences become U+FFFD. Returns nil when iconv does not know the
    /// charset. The conversion descriptor comes from `IconvPool` and is used
    /// by this call alone, so this is safe to use from any thread. `prefix`:
    /// a character cut at the end of `buffer` (iconv's `EINVAL`, incomplete
    /// input) is left out rather than replaced: the buffer is a window's cut. After a sequence iconv rejects
    /// (one U+FFFD) it goes on a whole code unit later (``codeUnit(_:)``), past the whole rejected character of a
    /// multibyte charset, an ASCII byte after its lead read again (``MultibyteResync``, as WHATWG's decoders do), or
    /// past the whole Japanese character (``JISExtensionRows``, which also reads the NEC and IBM rows of ISO-2022-JP
    /// and EUC-JP).
    static func iconvDecode(_ buffer: UnsafeBufferPointer<UInt8>, from name: String,
                            prefix: Bool = false) -> (String, Bool)? {
        guard let cd = IconvPool.shared.take(name) else { return nil }
        defer { IconvPool.shared.give(cd, charset: name) }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return ("", false) }

        var result = [UInt8]()
        result.reserveCapacity(buffer.count * 2)
        var invalid = false
        var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base)
            .assumingMemoryBound(to: CChar.self)
        var inLeft = buffer.count
        let chunkSize = 16_384
        let chunk = UnsafeMutablePointer<CChar>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        let unit = codeUnit(name)
        var japanese = JISExtensionRows(charset: name)
        let resync = MultibyteResync(charset: name)
        defer { japanese?.finish() }

        func drain(_ outLeft: Int) {
            let produced = chunkSize - outLeft
            if produced > 0 {
                UnsafeRawPointer(chunk).withMemoryRebound(to: UInt8.self, capacity: produced) { p in
                    result.append(contentsOf: UnsafeBufferPointer(start: p, count: produced))
                }
            }
        }

        while inLeft > 0 {
            var outPtr: UnsafeMutablePointer<CChar>? = chunk
            var outLeft = chunkSize
            let from = buffer.count - inLeft
            let r = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
            let err = errno
            drain(outLeft)
            if r != -1 { break }
            if err == E2BIG { continue }
            if err == EINVAL && prefix { break }  // a character cut by the window's end: not part of the text
            guard err == EILSEQ, inLeft > 0 else {
                invalid = true
                result.append(contentsOf: replacement)
                break  // EINVAL (truncated sequence at the end) or anything else.
            }
            let at = buffer.count - inLeft
            if let resync, resync.rejectedBefore(buffer, at: at, from: from) {
                invalid = true
                result.append(contentsOf: replacement)
                continue  // the rejected character is behind: go on where iconv stopped
            }
            // Past the whole code unit: a byte less would read every later UTF-16 or UTF-32 character from the
            // middle of one. Past the whole rejected multibyte character (`MultibyteResync`). A Japanese character
            // of an extension row is read again (`JISExtensionRows`).
            var skip = min(resync?.length(buffer, at: at) ?? unit, inLeft)
            var reread: [UInt8]?
            if let r = japanese?.reread(buffer, at: at) { (skip, reread) = (r.skip, r.utf8) }
            if let reread {
                result.append(contentsOf: reread)
            } else {
                invalid = true
                result.append(contentsOf: replacement)
            }
            inPtr = inPtr.map { $0 + skip }
            inLeft -= skip
        }
        // Flush any shift state.
        var outPtr: UnsafeMutablePointer<CChar>? = chunk
        var outLeft = chunkSize
        _ = iconv(cd, nil, nil, &outPtr, &outLeft)
        drain(outLeft)
        return (String(decoding: result, as: UTF8.self), invalid)
    }
}
