#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Byte-building helpers. Messages are assembled directly into [UInt8] buffers;
// no Foundation string formatting is used on the hot path.

@usableFromInline let asciiCR: UInt8 = 13
@usableFromInline let asciiLF: UInt8 = 10
@usableFromInline let hexDigitsUpper: [UInt8] = Array("0123456789ABCDEF".utf8)
@usableFromInline let hexDigitsLower: [UInt8] = Array("0123456789abcdef".utf8)
let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func put(_ bytes: [UInt8]) {
        append(contentsOf: bytes)
    }

    @inline(__always)
    mutating func putCRLF() {
        append(asciiCR)
        append(asciiLF)
    }

    /// Non-negative decimal number.
    mutating func putDecimal(_ value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            putDecimal(-value)
            return
        }
        if value < 10 {
            append(UInt8(48 + value))
            return
        }
        var digits = 0
        var v = value
        while v > 0 { v /= 10; digits += 1 }
        let start = count
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        v = value
        var i = start + digits - 1
        while v > 0 {
            self[i] = UInt8(48 + v % 10)
            v /= 10
            i -= 1
        }
    }

    /// Zero-padded decimal number of at least `width` digits.
    mutating func putDecimal(_ value: Int, width: Int) {
        var digits = 1
        var v = value
        while v >= 10 { v /= 10; digits += 1 }
        if digits < width {
            for _ in 0 ..< (width - digits) { append(UInt8(ascii: "0")) }
        }
        putDecimal(value)
    }

    /// Space-padded decimal (for asctime day of month).
    mutating func putDecimalSpacePadded(_ value: Int, width: Int) {
        var digits = 1
        var v = value
        while v >= 10 { v /= 10; digits += 1 }
        if digits < width {
            for _ in 0 ..< (width - digits) { append(UInt8(ascii: " ")) }
        }
        putDecimal(value)
    }

    mutating func putHex(_ value: UInt64, digits: Int, uppercase: Bool = false) {
        let table = uppercase ? hexDigitsUpper : hexDigitsLower
        var shift = (digits - 1) * 4
        while shift >= 0 {
            append(table[Int((value >> UInt64(shift)) & 0xF)])
            shift -= 4
        }
    }

    /// Base64 of `data`; with `lineLength > 0`, lines are broken with CRLF
    /// (the last line also ends with CRLF).
    mutating func putBase64(_ data: UnsafeBufferPointer<UInt8>, lineLength: Int = 76) {
        let n = data.count
        if n == 0 { return }
        let encodedLength = ((n + 2) / 3) * 4
        let groupsPerLine = lineLength > 0 ? lineLength / 4 : Int.max
        let lines = lineLength > 0 ? (encodedLength + lineLength - 1) / lineLength : 0
        let total = encodedLength + lines * 2
        let start = count
        append(contentsOf: repeatElement(0, count: total))
        base64Alphabet.withUnsafeBufferPointer { alphaBuf in
            withUnsafeMutableBufferPointer { outBuf in
                let alpha = alphaBuf.baseAddress!
                let input = data.baseAddress!
                var out = outBuf.baseAddress! + start
                let end = outBuf.baseAddress! + start + total
                var i = 0
                var groupsOnLine = 0
                while i + 3 <= n {
                    // One 24-bit group -> four characters.
                    let g = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                    out[0] = alpha[Int(g >> 18)]
                    out[1] = alpha[Int((g >> 12) & 0x3F)]
                    out[2] = alpha[Int((g >> 6) & 0x3F)]
                    out[3] = alpha[Int(g & 0x3F)]
                    out += 4
                    i += 3
                    groupsOnLine += 1
                    if groupsOnLine == groupsPerLine {
                        out[0] = asciiCR
                        out[1] = asciiLF
                        out += 2
                        groupsOnLine = 0
                    }
                }
                let rest = n - i
                if rest > 0 {
                    let b0 = Int(input[i])
                    let b1 = rest > 1 ? Int(input[i + 1]) : 0
                    out[0] = alpha[b0 >> 2]
                    out[1] = alpha[((b0 & 3) << 4) | (b1 >> 4)]
                    out[2] = rest > 1 ? alpha[(b1 & 0xF) << 2] : UInt8(ascii: "=")
                    out[3] = UInt8(ascii: "=")
                    out += 4
                    groupsOnLine += 1
                }
                if lineLength > 0 && groupsOnLine > 0 {
                    out[0] = asciiCR
                    out[1] = asciiLF
                    out += 2
                }
                precondition(out == end, "base64 length mismatch")
            }
        }
    }

    mutating func putBase64(_ data: [UInt8], lineLength: Int = 76) {
        data.withUnsafeBufferPointer { putBase64($0, lineLength: lineLength) }
    }

    /// Quoted-printable (RFC 2045) of text whose lines end in CRLF. Hard line
    /// breaks are kept; lines longer than 76 get soft breaks.
    mutating func putQuotedPrintable(_ data: UnsafeBufferPointer<UInt8>) {
        let n = data.count
        if n == 0 { return }
        // Worst case: every byte as =XX plus a soft break per 25 input bytes.
        let capacity = n * 3 + (n / 25 + 2) * 3
        let start = count
        append(contentsOf: repeatElement(0, count: capacity))
        var o = start
        withUnsafeMutableBufferPointer { outBuf in
            let out = outBuf.baseAddress!
            let data = data.baseAddress!
            hexDigitsUpper.withUnsafeBufferPointer { hexBuf in
                let hex = hexBuf.baseAddress!
                var col = 0
                var i = 0
                while i < n {
                    let b = data[i]
                    if b == asciiCR && i + 1 < n && data[i + 1] == asciiLF {
                        out[o] = asciiCR; out[o + 1] = asciiLF
                        o += 2
                        col = 0
                        i += 2
                        continue
                    }
                    let atLineEnd = (i + 1 == n) || (data[i + 1] == asciiCR && i + 2 < n && data[i + 2] == asciiLF)
                    let literal: Bool
                    if b == 32 || b == 9 {
                        literal = !atLineEnd
                    } else {
                        literal = b >= 33 && b <= 126 && b != 61 // '='
                    }
                    let width = literal ? 1 : 3
                    // Keep room for the soft-break "=" (max 76 chars per line).
                    if col + width > 75 && !(atLineEnd && col + width <= 76) {
                        out[o] = 61; out[o + 1] = asciiCR; out[o + 2] = asciiLF
                        o += 3
                        col = 0
                    }
                    if literal {
                        out[o] = b
                        o += 1
                    } else {
                        out[o] = 61
                        out[o + 1] = hex[Int(b >> 4)]
                        out[o + 2] = hex[Int(b & 0xF)]
                        o += 3
                    }
                    col += width
                    i += 1
                }
            }
        }
        removeLast(start + capacity - o)
    }

    mutating func putQuotedPrintable(_ data: [UInt8]) {
        data.withUnsafeBufferPointer { putQuotedPrintable($0) }
    }

    /// Appends `text` with HTML special characters escaped.
    mutating func putHTMLEscaped(_ text: ArraySlice<UInt8>) {
        for b in text {
            switch b {
            case UInt8(ascii: "&"): put("&amp;")
            case UInt8(ascii: "<"): put("&lt;")
            case UInt8(ascii: ">"): put("&gt;")
            case UInt8(ascii: "\""): put("&quot;")
            default: append(b)
            }
        }
    }
}

/// Index of the first `byte` at or after `from` (memchr).
@inline(__always)
func findByte(_ byte: UInt8, in p: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    guard from < p.count, let base = p.baseAddress else { return nil }
    guard let hit = memchr(base + from, Int32(byte), p.count - from) else { return nil }
    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
}

// MARK: - RFC 2047 encoded words

enum EncodedWordStyle: Sendable {
    case base64
    case q
}

/// Is the byte a UTF-8 continuation byte?
@inline(__always)
private func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }

/// Q-encoding characters allowed literally in a phrase (RFC 2047 §5 (3)).
@inline(__always)
private func qLiteral(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
        || b == UInt8(ascii: "!") || b == UInt8(ascii: "*") || b == UInt8(ascii: "+")
        || b == UInt8(ascii: "-") || b == UInt8(ascii: "/")
}

extension Array where Element == UInt8 {
    /// Appends `text` (already in `charset`) as one or more RFC 2047 encoded
    /// words, each at most 75 characters, separated by CRLF SPACE folding.
    /// `multibyteUTF8` keeps UTF-8 sequences whole within a word.
    mutating func putEncodedWords(_ text: [UInt8], charset: [UInt8], style: EncodedWordStyle,
                                  utf8: Bool) {
        let overhead = charset.count + 7 // =? ? ?B? ?=
        let budget = 75 - overhead
        var start = 0
        var first = true
        while start < text.count {
            // Choose the chunk end.
            var end = start
            switch style {
            case .base64:
                let maxBytes = (budget / 4) * 3
                end = Swift.min(text.count, start + maxBytes)
            case .q:
                var used = 0
                while end < text.count {
                    let w = qLiteral(text[end]) || text[end] == UInt8(ascii: " ") ? 1 : 3
                    if used + w > budget { break }
                    used += w
                    end += 1
                }
            }
            if utf8 {
                while end < text.count && end > start + 1 && isContinuation(text[end]) { end -= 1 }
            }
            if end <= start { end = Swift.min(text.count, start + 1) }
            if !first { putCRLF(); append(UInt8(ascii: " ")) }
            first = false
            put("=?")
            append(contentsOf: charset)
            switch style {
            case .base64:
                put("?B?")
                text.withUnsafeBufferPointer { buf in
                    putBase64(UnsafeBufferPointer(rebasing: buf[start ..< end]), lineLength: 0)
                }
            case .q:
                put("?Q?")
                for b in text[start ..< end] {
                    if b == UInt8(ascii: " ") {
                        append(UInt8(ascii: "_"))
                    } else if qLiteral(b) {
                        append(b)
                    } else {
                        append(UInt8(ascii: "="))
                        append(hexDigitsUpper[Int(b >> 4)])
                        append(hexDigitsUpper[Int(b & 0xF)])
                    }
                }
            }
            put("?=")
            start = end
        }
    }
}

@inline(__always)
func isASCII(_ bytes: [UInt8]) -> Bool {
    for b in bytes where b >= 0x80 { return false }
    return true
}

// MARK: - Dates

/// Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
@inline(__always)
func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let y = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? y + 1 : y, m, d)
}

let dayNames: [[UInt8]] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
let monthNames: [[UInt8]] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    .map { Array($0.utf8) }

@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a + b - 1) / b)
}

struct BrokenDownTime {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int

    init(epoch: Int) {
        let days = floorDiv(epoch, 86_400)
        let secs = epoch - days * 86_400
        let c = civilFromDays(days)
        year = c.year; month = c.month; day = c.day
        hour = secs / 3600; minute = (secs / 60) % 60; second = secs % 60
        weekday = ((days % 7) + 11) % 7 // 1970-01-01 was a Thursday (4)
    }
}

/// How a sender's client writes its Date header.
enum DateStyle: UInt8, Sendable {
    case standard      // Mon, 1 Jan 2024 10:00:00 +0100
    case zeroPadded    // Mon, 01 Jan 2024 10:00:00 +0100
    case withComment   // Mon, 1 Jan 2024 10:00:00 +0100 (CET)
    case noWeekday     // 1 Jan 2024 10:00:00 +0100
}

extension Array where Element == UInt8 {
    /// RFC 5322 date-time for `epoch` shown in the zone `offsetMinutes`.
    mutating func putRFC5322Date(epoch: Int, offsetMinutes: Int, style: DateStyle, zoneComment: [UInt8]? = nil) {
        let t = BrokenDownTime(epoch: epoch + offsetMinutes * 60)
        if style != .noWeekday {
            put(dayNames[t.weekday]); put(", ")
        }
        if style == .zeroPadded { putDecimal(t.day, width: 2) } else { putDecimal(t.day) }
        append(UInt8(ascii: " "))
        put(monthNames[t.month - 1])
        append(UInt8(ascii: " "))
        putDecimal(t.year)
        append(UInt8(ascii: " "))
        putDecimal(t.hour, width: 2); append(UInt8(ascii: ":"))
        putDecimal(t.minute, width: 2); append(UInt8(ascii: ":"))
        putDecimal(t.second, width: 2)
        append(UInt8(ascii: " "))
        append(offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let a = abs(offsetMinutes)
        putDecimal(a / 60, width: 2)
        putDecimal(a % 60, width: 2)
        if style == .withComment, let comment = zoneComment {
            put(" (")
            put(comment)
            append(UInt8(ascii: ")"))
        }
    }

    /// asctime-style date used on mbox From_ lines: `Mon Jan  1 00:00:00 2024` (UTC).
    mutating func putAsctime(epoch: Int) {
        let t = BrokenDownTime(epoch: epoch)
        put(dayNames[t.weekday]); append(UInt8(ascii: " "))
        put(monthNames[t.month - 1]); append(UInt8(ascii: " "))
        putDecimalSpacePadded(t.day, width: 2); append(UInt8(ascii: " "))
        putDecimal(t.hour, width: 2); append(UInt8(ascii: ":"))
        putDecimal(t.minute, width: 2); append(UInt8(ascii: ":"))
        putDecimal(t.second, width: 2); append(UInt8(ascii: " "))
        putDecimal(t.year)
    }

    /// Short attribution date: `Mon, 1 Jan 2024 at 10:00` in the given zone.
    mutating func putAttributionDate(epoch: Int, offsetMinutes: Int) {
        let t = BrokenDownTime(epoch: epoch + offsetMinutes * 60)
        put(dayNames[t.weekday]); put(", ")
        putDecimal(t.day); append(UInt8(ascii: " "))
        put(monthNames[t.month - 1]); append(UInt8(ascii: " "))
        putDecimal(t.year); put(" at ")
        putDecimal(t.hour, width: 2); append(UInt8(ascii: ":"))
        putDecimal(t.minute, width: 2)
    }

    /// Numeric date `2024-01-01 10:00` (used by non-English attributions).
    mutating func putNumericDate(epoch: Int, offsetMinutes: Int) {
        let t = BrokenDownTime(epoch: epoch + offsetMinutes * 60)
        putDecimal(t.year); append(UInt8(ascii: "-"))
        putDecimal(t.month, width: 2); append(UInt8(ascii: "-"))
        putDecimal(t.day, width: 2); append(UInt8(ascii: " "))
        putDecimal(t.hour, width: 2); append(UInt8(ascii: ":"))
        putDecimal(t.minute, width: 2)
    }
}
