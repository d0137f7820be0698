/// Tolerant quoted-printable decoding (RFC 2045 section 6.7).
enum QuotedPrintable {
    /// Decodes quoted-printable body data. Soft line breaks (`=` at the end
    /// of a line, optionally followed by whitespace) are removed, `=XX`
    /// escapes decoded, bad escapes kept literally, trailing whitespace on
    /// lines removed. Works line by line with memchr and bulk copies.
    /// - Returns: the bytes and whether a bad escape was seen.
    /// - Parameter lineFeeds: write every line break as a single LF.
    static func decode(_ buf: UnsafeBufferPointer<UInt8>, lineFeeds: Bool = false) -> (bytes: [UInt8], hadBadEscape: Bool) {
        var bad = false
        let n = buf.count
        guard let src = buf.baseAddress, n > 0 else { return ([], false) }
        // Every input byte yields at most one output byte.
        let out = [UInt8](unsafeUninitializedCapacity: n) { ob, initialized in
            guard let dst = ob.baseAddress else { initialized = 0; return }
            var o = 0
            var i = 0
            while i < n {
                let newline = ByteScan.find(ASCII.lf, in: buf, from: i, to: n)
                let lineEnd = newline ?? n
                var contentEnd = lineEnd
                if newline != nil, contentEnd > i, buf[contentEnd - 1] == ASCII.cr { contentEnd -= 1 }
                var e = contentEnd
                while e > i, ASCII.isWSP(buf[e - 1]) { e -= 1 }
                var soft = false
                var j = i
                while j < e {
                    let k = ByteScan.find(ASCII.equals, in: buf, from: j, to: e) ?? e
                    if k > j {
                        (dst + o).update(from: src + j, count: k - j)
                        o += k - j
                    }
                    if k >= e { break }
                    if k == e - 1 {
                        soft = true  // '=' ends the line: soft line break
                        break
                    }
                    if k + 2 < e, let h = ASCII.hexValue(buf[k + 1]), let l = ASCII.hexValue(buf[k + 2]) {
                        dst[o] = h << 4 | l
                        o += 1
                        j = k + 3
                    } else {
                        bad = true
                        dst[o] = ASCII.equals
                        o += 1
                        j = k + 1
                    }
                }
                if let nl = newline {
                    if !soft && lineFeeds {
                        dst[o] = ASCII.lf
                        o += 1
                    } else if !soft {
                        let terminator = nl + 1 - contentEnd
                        (dst + o).update(from: src + contentEnd, count: terminator)
                        o += terminator
                    }
                    i = nl + 1
                } else {
                    i = n
                }
            }
            initialized = o
        }
        return (out, bad)
    }

    /// Decodes RFC 2047 "Q" encoded text: like quoted-printable, plus `_`
    /// stands for a space; no line structure.
    static func decodeQ(_ buf: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(buf.count)
        let n = buf.count
        var i = 0
        while i < n {
            let c = buf[i]
            if c == ASCII.equals, i + 2 < n, let h = ASCII.hexValue(buf[i + 1]), let l = ASCII.hexValue(buf[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(c == ASCII.underscore ? ASCII.space : c)
            i += 1
        }
        return out
    }

    /// The decoded size of quoted-printable data, computed without decoding.
    static func decodedSize(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var size = 0
        var i = from
        while i < to {
            guard let eq = ByteScan.find(ASCII.equals, in: buf, from: i, to: to) else {
                size += to - i
                break
            }
            size += eq - i
            var j = eq + 1
            while j < to, ASCII.isWSP(buf[j]) { j += 1 }
            if j >= to { i = j; continue }
            if buf[j] == ASCII.lf { i = j + 1; continue }
            if buf[j] == ASCII.cr {
                i = (j + 1 < to && buf[j + 1] == ASCII.lf) ? j + 2 : j + 1
                continue
            }
            if eq + 2 < to, ASCII.hexValue(buf[eq + 1]) != nil, ASCII.hexValue(buf[eq + 2]) != nil {
                size += 1
                i = eq + 3
            } else {
                size += 1
                i = eq + 1
            }
        }
        return size
    }
}
