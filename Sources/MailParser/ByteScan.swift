import Glibc

/// Fast searching helpers over raw byte buffers (memchr based).
enum ByteScan {
    /// The index of the first `byte` in `buf[from..<to]`, or nil.
    @inline(__always)
    static func find(_ byte: UInt8, in buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, from >= 0, to <= buf.count, let base = buf.baseAddress else { return nil }
        guard let p = memchr(base + from, Int32(byte), to - from) else { return nil }
        return UnsafeRawPointer(p) - UnsafeRawPointer(base)
    }

    /// The end of the line starting at `from` (excluding CR LF / LF) and the
    /// start of the next line. A line without terminator ends at `to`.
    @inline(__always)
    static func line(in buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (end: Int, next: Int) {
        if let nl = find(ASCII.lf, in: buf, from: from, to: to) {
            var end = nl
            if end > from && buf[end - 1] == ASCII.cr { end -= 1 }
            return (end, nl + 1)
        }
        return (to, to)
    }

    /// Whether `buf[from..<to]` contains only spaces, tabs and CRs.
    @inline(__always)
    static func isBlank(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var i = from
        while i < to {
            let b = buf[i]
            if b != ASCII.space && b != ASCII.tab && b != ASCII.cr { return false }
            i += 1
        }
        return true
    }

    /// Whether all bytes in `buf[from..<to]` are below 0x80.
    static func isASCII(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        guard from < to, let base = buf.baseAddress else { return true }
        var i = from
        // Check 8 bytes at a time.
        while i + 8 <= to {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if w & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < to {
            if buf[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// Whether `buf[at...]` starts with `prefix` (exact bytes), within `to`.
    @inline(__always)
    static func hasPrefix(_ buf: UnsafeBufferPointer<UInt8>, at: Int, to: Int, _ prefix: [UInt8]) -> Bool {
        guard at >= 0, to - at >= prefix.count, to <= buf.count else { return false }
        var k = 0
        while k < prefix.count {
            if buf[at + k] != prefix[k] { return false }
            k += 1
        }
        return true
    }

    /// Whether `buf[at...]` starts with `prefix` ignoring ASCII case; `prefix`
    /// must be lowercase.
    @inline(__always)
    static func hasPrefixIgnoringCase(_ buf: UnsafeBufferPointer<UInt8>, at: Int, to: Int, _ prefix: [UInt8]) -> Bool {
        guard at >= 0, to - at >= prefix.count, to <= buf.count else { return false }
        var k = 0
        while k < prefix.count {
            if ASCII.lower(buf[at + k]) != prefix[k] { return false }
            k += 1
        }
        return true
    }

    /// Decodes header-ish bytes to a String: UTF-8 when valid (RFC 6532),
    /// otherwise Windows-1252.
    static func headerString(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> String {
        guard from < to else { return "" }
        let slice = UnsafeBufferPointer(rebasing: buf[from..<to])
        return headerString(slice)
    }

    /// Decodes header-ish bytes to a String: UTF-8 when valid, otherwise Windows-1252.
    static func headerString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        headerText(bytes).text
    }

    /// ``headerString(_:)``'s text, and whether it was read as Windows-1252 (8-bit bytes, not UTF-8), which
    /// ``Charsets/encodeWindows1252(_:)`` turns back into the bytes.
    static func headerText(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, windows1252: Bool) {
        if isASCII(bytes, from: 0, to: bytes.count) || Charsets.isValidUTF8(bytes) {
            return (String(decoding: bytes, as: UTF8.self), false)
        }
        return (Charsets.decodeWindows1252(bytes), true)
    }

    /// Decodes header-ish bytes held in an array.
    static func headerString(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { headerString($0) }
    }
}
