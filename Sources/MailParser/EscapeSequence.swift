/// ANSI / ECMA-48 escape sequences in UTF-8 text, found whole so that text from mail keeps none of their remains:
/// `ESC [ 31 m RED` is `RED`, not `[31mRED`. The one recogniser of them: snippets (``Snippet``), the search index's
/// text and the terminal sanitiser (``TerminalText``) all remove what it finds.
///
/// A sequence is, from its first byte:
/// - CSI: `ESC [` or U+009B, then parameter bytes (0x30-0x3F), intermediate bytes (0x20-0x2F) and one final byte
///   (0x40-0x7E); without a final byte it ends where the bytes of those classes do;
/// - a control string: OSC (`ESC ]`, U+009D), DCS (`ESC P`, U+0090), SOS (`ESC X`, U+0098), PM (`ESC ^`, U+009E) or
///   APC (`ESC _`, U+009F), ended by BEL, ST (`ESC \` or U+009C) or an `ESC` that starts something else (which is
///   then a sequence of its own). Bounded: one that is not ended within ``maxStringBytes`` bytes of its first
///   byte, or before the end of its line (LF or CR, kept), ends there;
/// - `ESC` with intermediate bytes (0x20-0x2F) and a final byte (0x30-0x7E) (`ESC ( 0`), or `ESC` with the one
///   byte 0x30-0x7E after it (`ESC c`, `ESC 7`); an `ESC` followed by anything else (a control, a non-ASCII
///   character, nothing) is a sequence of that one byte.
///
/// The C1 forms are the two UTF-8 bytes of their code points (`C2 9B`, ...). Never ends inside a UTF-8 sequence.
///
/// For a terminal (``TerminalText``), a control string not ended (by BEL, ST or another `ESC`) is only its
/// introducer: its text is then printable and stays, so that one field of a composed line (a Subject with `ESC ] 0 ;`
/// and no end) cannot take the rest of the line with it (an address, an audit line's folder) as the whole string
/// did. Snippets and the search index remove such a string whole (unchanged since search schema 9).
package enum EscapeSequence {
    /// What an unended control string is: the whole string (to the end of its line or ``maxStringBytes``), or only
    /// its introducer (`ESC ]`, ...).
    package enum Unended: Sendable {
        case whole
        case introducer
    }

    /// The most bytes a control string spans, from its first byte through its terminator (an OSC 8 hyperlink or an
    /// OSC 0 title fits many times over); one not ended within them ends there.
    package static let maxStringBytes = 4_096

    private static let escape: UInt8 = 0x1B
    private static let bell: UInt8 = 0x07
    /// The lead byte of U+0080-U+00BF in UTF-8: the C1 controls are `C2 80` - `C2 9F`.
    private static let c1Lead: UInt8 = 0xC2

    /// The index just after the escape sequence that starts at `b[i]`, or nil when none starts there. Reads no
    /// byte at or after `n`.
    package static func end(in b: UnsafeBufferPointer<UInt8>, at i: Int, before n: Int, unended: Unended = .whole) -> Int? {
        var clear = 0
        return end(in: b, at: i, before: n, unended: unended, clear: &clear)
    }

    /// `end(in:at:before:unended:)` with `clear`: an index up to which the bytes after any introducer at or after `i`
    /// hold no terminator and no line end (a control string's scan left it there), so a scan resumes from it; moved on
    /// by a scan that found no terminator. With it, text of many introducers never ended is read once (each had scanned
    /// its `maxStringBytes` again: 2 s for a megabyte of U+009D).
    private static func end(in b: UnsafeBufferPointer<UInt8>, at i: Int, before n: Int, unended: Unended,
                            clear: inout Int) -> Int? {
        guard i < n else { return nil }
        if b[i] == c1Lead {
            guard i + 1 < n else { return nil }
            switch b[i + 1] {
            case 0x9B: return csiEnd(b, from: i + 2, before: n)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: return stringEnd(b, start: i, from: i + 2, before: n, unended: unended, clear: &clear)
            default: return nil
            }
        }
        guard b[i] == escape else { return nil }
        let next = i + 1
        guard next < n else { return next }
        switch b[next] {
        case ASCII.openBracket:
            return csiEnd(b, from: next + 1, before: n)
        case ASCII.closeBracket, 0x50, 0x58, 0x5E, ASCII.underscore: // ] P X ^ _
            return stringEnd(b, start: i, from: next + 1, before: n, unended: unended, clear: &clear)
        case 0x20...0x2F:
            var j = next
            while j < n, (0x20...0x2F).contains(b[j]) { j += 1 }
            return j < n && (0x30...0x7E).contains(b[j]) ? j + 1 : j
        case 0x30...0x7E:
            return next + 1
        default:
            return next
        }
    }

    /// `text` with every escape sequence removed (an unended control string as `unended` says); `text` itself when
    /// it has none.
    package static func removed(from text: String, unended: Unended = .whole) -> String {
        var copy = text
        return copy.withUTF8 { b in
            var out = [UInt8]()
            var kept = 0
            var i = 0
            var clear = 0
            while i < b.count {
                guard b[i] == escape || b[i] == c1Lead, let e = end(in: b, at: i, before: b.count, unended: unended, clear: &clear) else {
                    i += 1
                    continue
                }
                if out.isEmpty { out.reserveCapacity(b.count) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[kept..<i]))
                i = e
                kept = e
            }
            if kept == 0 { return text }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[kept..<b.count]))
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The index after a CSI's parameter, intermediate and final bytes, from `j` (just after its introducer).
    private static func csiEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int, before n: Int) -> Int {
        var j = start
        while j < n, (0x30...0x3F).contains(b[j]) { j += 1 }
        while j < n, (0x20...0x2F).contains(b[j]) { j += 1 }
        if j < n, (0x40...0x7E).contains(b[j]) { j += 1 }
        return j
    }

    /// The index after a control string whose introducer is `b[start..<from]`: after its BEL or ST, or at an `ESC`
    /// that is not ST, a line end or ``maxStringBytes`` from `start` (moved past any UTF-8 continuation bytes); with
    /// `unended: .introducer`, `from` where it is not ended by BEL, ST or an `ESC`.
    private static func stringEnd(_ b: UnsafeBufferPointer<UInt8>, start: Int, from: Int, before n: Int, unended: Unended,
                                  clear: inout Int) -> Int {
        let limit = min(n, start + maxStringBytes)
        var j = max(from, clear)
        defer { if j > clear { clear = j } }
        while j < limit {
            switch b[j] {
            case bell:
                return j + 1
            case escape:
                return j + 1 < n && b[j + 1] == ASCII.backslash ? j + 2 : j
            case c1Lead where j + 1 < n && b[j + 1] == 0x9C:
                return j + 2
            case ASCII.lf, ASCII.cr:
                return unended == .introducer ? from : j
            default:
                j += 1
            }
        }
        if unended == .introducer { return from }
        while j < n, b[j] & 0xC0 == 0x80 { j += 1 }
        return j
    }
}
