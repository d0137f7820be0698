/// The readable text of a message, as `mailstore show` prints it below the headers.
public struct BodyText: Sendable, Equatable {
    /// The text: the plain text part, or the text of the HTML part where the message has no plain one; empty when it
    /// has neither. Lines end in LF. Not sanitised: `TerminalSanitiser.block` before it reaches a terminal.
    public var text: String
    /// True when `text` came from the HTML part.
    public var fromHTML: Bool
    /// True when the text went on past the limit and was cut there.
    public var truncated: Bool

    /// At most this many UTF-8 bytes of text by default (1 MiB: a long thread's quoted history fits; a log file
    /// pasted into a message is cut, with a notice).
    public static let defaultLimit = 1 << 20

    /// `text` without its leading blank lines, cut to at most `limit` UTF-8 bytes at a Unicode scalar's end (a grapheme of a million combining marks
    /// is cut inside, in steps bounded by UTF-8's 4 bytes), CRLF and lone CR made LF.
    init(_ text: String, fromHTML: Bool, limit: Int) {
        var t = BodyText.lineFeeds(text)
        // Blank lines before the first line of text (an HTML part's first block starts with one) are left out; that
        // line's indentation is kept.
        if let first = t.firstIndex(where: { $0 != "\n" && $0 != " " && $0 != "\t" }),
           let lastBreak = t[..<first].lastIndex(of: "\n") {
            t = String(t[t.index(after: lastBreak)...])
        }
        let cut = t.utf8.count > limit
        if cut {
            let bytes = Array(t.utf8)
            var end = max(limit, 0)
            while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            t = String(decoding: bytes[..<end], as: UTF8.self)
        }
        self.text = t
        self.fromHTML = fromHTML
        self.truncated = cut
    }

    /// `text` with CRLF and lone CR as LF.
    private static func lineFeeds(_ text: String) -> String {
        guard text.utf8.contains(13) else { return text }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for s in text.unicodeScalars {
            if s == "\r" {
                out.append("\n")
                previousCR = true
            } else {
                if !(previousCR && s == "\n") { out.append(s) }
                previousCR = false
            }
        }
        return String(out)
    }
}
