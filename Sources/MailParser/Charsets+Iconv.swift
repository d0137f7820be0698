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
    /// and EUC-JP). A byte that begins no character is read as WHATWG's decoders read it where glibc differs: iconv
    /// is stopped before a byte glibc would read as a C1 control (``MultibyteResync/stopsBefore(_:)``), one U+FFFD,
    /// and a byte it rejects may be a character of its own (``MultibyteResync/lone(_:)``, GB18030's `80` is €).
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

        // Where iconv is stopped next: a byte `resync` reads as U+FFFD where glibc reads a C1 control, or the end.
        var stop = -1
        while inLeft > 0 {
            var outPtr: UnsafeMutablePointer<CChar>? = chunk
            var outLeft = chunkSize
            let from = buffer.count - inLeft
            if stop < from { stop = resync?.nextStop(buffer, from: from) ?? buffer.count }
            if stop == from {
                invalid = true
                result.append(contentsOf: replacement)
                inPtr = inPtr.map { $0 + 1 }
                inLeft -= 1
                continue
            }
            var segmentLeft = stop - from
            let r = iconv(cd, &inPtr, &segmentLeft, &outPtr, &outLeft)
            let err = errno
            inLeft = buffer.count - stop + segmentLeft
            drain(outLeft)
            if r != -1 { continue }  // the segment is converted: its stop byte is next, or the end
            if err == E2BIG { continue }
            if err == EINVAL && prefix && stop == buffer.count { break }  // a character cut by the window's end
            // Incomplete input of a multibyte charset is rejected as by EILSEQ, as long as `resync` reads it: before
            // a stop byte it is a lead that byte cannot continue, and at the end glibc's GB18030 waits for four bytes
            // after `81 30` whatever they are (`81 30 61` lost the `0a`).
            guard err == EILSEQ || (err == EINVAL && resync != nil), inLeft > 0 else {
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
            if let scalar = resync?.lone(buffer[at]) {
                appendUTF8(scalar.value, to: &result)
                inPtr = inPtr.map { $0 + 1 }
                inLeft -= 1
                continue
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
