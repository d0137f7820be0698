/// How much of a part's encoded body a reader that keeps at most `limit` bytes of its text decodes
/// (`MIMEPart.decodedText(in:limit:)`): a prefix, not the whole part, so a 60 MB body is not decoded (and copied two
/// or three times over: transfer-decoded, line ends normalised, charset-converted) for the first megabyte of its text.
///
/// A part whose encoded body fits the first window is decoded whole, exactly as without a limit, then cut: every
/// part of ordinary mail. A longer one is decoded from the first window (`first(for:)`), and, for a reader that
/// widens (the search index's plain text), once more from the last one (`last(for:)`) when the first gave less than
/// `limit` bytes of text (quoted-printable full of escapes, UTF-16, NULs); a part whose last window gives less than
/// `limit` bytes yields what it gives. A window is decoded up to its last line end (`wholeLines`), before and after
/// the transfer decoding, so its text is the part's text up to a line; what a whole-body decision would have seen
/// past the window is not seen: the choice between UTF-8 and Windows-1252 for unlabelled 8-bit text, and the
/// warnings of bytes past it. Where a window holds no line end it is cut by UTF-8's rules (a wide charset's at whole
/// 4-byte units); a character of a legacy multibyte charset, or a UTF-16 surrogate pair, cut there is left out of
/// the window's text by the charset's decoder (iconv's incomplete input at the end: `Charsets.decode(buffer:charset:prefix:)`),
/// not shown as U+FFFD with a warning.
///
/// Memory, for a window of W encoded bytes: its transfer-decoded bytes (at most W), its text (at most W for UTF-8
/// and ASCII, normalised straight into it; through a normalised copy of at most W, and up to three bytes a byte
/// for single-byte charsets' upper half and bytes replaced by U+FFFD, otherwise) and that text cut to `limit`: ~2 W
/// for ordinary text, ~5 W at the very worst. A `limit` of 1 MiB: W ~1.6 MiB, ~4.1 MiB widened.
enum TextWindow {
    /// Encoded bytes the first window holds besides `limit` and its half: a small part is always decoded whole (64 KiB).
    static let slackBytes = 64 << 10

    /// The first window for `limit` bytes of text: `1.5 * limit + slackBytes` encoded bytes, enough for `limit` bytes
    /// of text from 7bit, 8bit and base64 bodies (3 bytes per 4) of text in any ASCII-compatible charset.
    static func first(for limit: Int) -> Int {
        let l = min(max(0, limit), Int.max / 4)
        return l + l / 2 + slackBytes
    }

    /// The last window for `limit` bytes of text: `4 * limit + slackBytes` encoded bytes (quoted-printable of
    /// non-ASCII text takes 3 encoded bytes a byte; base64 of UTF-16, 8 per ASCII character...).
    static func last(for limit: Int) -> Int {
        let l = min(max(0, limit), Int.max / 8)
        return 4 * l + slackBytes
    }

    /// `b` up to and with its last LF (all of it when it has none: then without a UTF-8 sequence cut at its end).
    static func wholeLines(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = b.count
        while end > 0 && b[end - 1] != ASCII.lf { end -= 1 }
        if end > 0 { return UnsafeBufferPointer(rebasing: b[..<end]) }
        return completeUTF8(b)
    }

    /// `b` without a UTF-8 sequence begun and not finished at its end (its lead byte and the continuation bytes after
    /// it, at most 3 bytes dropped).
    static func completeUTF8(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let n = b.count
        var i = n
        // Back over at most 3 continuation bytes to the lead byte, if any.
        while i > 0 && n - i < 3 && b[i - 1] & 0xC0 == 0x80 { i -= 1 }
        guard i > 0 else { return b }
        let lead = b[i - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        // Complete (or not a lead byte at all): kept whole.
        if length == 1 || n - (i - 1) >= length { return b }
        return UnsafeBufferPointer(rebasing: b[..<(i - 1)])
    }

    /// `b` cut to whole code units of a wide charset (4 bytes: UTF-32's unit, two of UTF-16's).
    static func wholeUnits(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: b[..<(b.count & ~3)])
    }
}
