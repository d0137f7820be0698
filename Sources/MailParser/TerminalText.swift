/// Text from mail or servers made safe to print on a terminal.
///
/// A Subject, a display name or a folder name is written by strangers: printed raw, `ESC [ 2 J`
/// clears the screen, `ESC ] 52 ; c ; ... BEL` writes the clipboard (OSC 52), a right-to-left
/// override reverses what follows. The sanitiser removes:
/// - escape sequences whole, as ``EscapeSequence`` finds them: CSI (`ESC [` or U+009B, parameters,
///   intermediates, final byte), OSC, DCS, SOS, PM and APC strings (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`,
///   `ESC _` or their C1 forms, up to BEL, ST or another `ESC`; of one not ended, only its introducer: the
///   printable text after it stays, so one field of a line cannot hide the rest of the line), and `ESC` with the
///   character that follows it;
/// - every other C0 control (U+0000-U+001F), DEL (U+007F) and C1 control (U+0080-U+009F), except
///   tab and line feed in ``block(_:)``; CR LF becomes LF there;
/// - bidirectional embeddings, overrides, isolates and marks (U+202A-U+202E, U+2066-U+2069,
///   U+200E, U+200F, U+061C);
/// - line and paragraph separators (U+2028, U+2029): a space in ``line(_:)``, a line feed in
///   ``block(_:)``.
///
/// Everything else (any printable character of any script, emoji) is kept. JSON output does not
/// use this: it keeps the text exact, with the encoder's escapes of C0 controls and ``jsonEscaped(_:)``'s of the rest.
///
/// ```swift
/// print(TerminalText.line(subject))   // "hi" for "hi\u{1B}[2J\u{1B}]52;c;aGk=\u{07}"
/// ```
public enum TerminalText {
    /// `text` for one line of output (a list row, a header field): tabs and line breaks become
    /// spaces, every control, escape sequence and bidi control is removed.
    public static func line(_ text: String) -> String {
        sanitise(text, keepLayout: false)
    }

    /// `text` for a block of output (a message body): tabs and line feeds are kept, CR LF becomes
    /// LF, every other control, escape sequence and bidi control is removed.
    public static func block(_ text: String) -> String {
        sanitise(text, keepLayout: true)
    }

    /// Whether `text` prints as itself (``line(_:)`` would return it unchanged).
    public static func isSafeLine(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { !isControl($0.value) && !isBidiControl($0.value) && !isSeparator($0.value) }
    }

    /// `json` (JSON text) with every DEL, C1 control, bidi control and line or paragraph separator written as a
    /// `\uXXXX` escape: the same text to a JSON reader, nothing a terminal acts on when it is printed. (JSON encoders
    /// escape only U+0000-U+001F; the characters escaped here can stand only inside JSON strings.)
    public static func jsonEscaped(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 >= 0x7F }) else { return json }
        var out = String.UnicodeScalarView()
        for u in json.unicodeScalars {
            let v = u.value
            if v >= 0x7F && (isControl(v) || isBidiControl(v) || isSeparator(v)) {
                let hex = String(v, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    private static func sanitise(_ text: String, keepLayout: Bool) -> String {
        if isSafeLine(text) { return text }
        let scalars = Array(EscapeSequence.removed(from: text, unended: .introducer).unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let v = scalars[i].value
            switch v {
            case 0x09:
                out.append(keepLayout ? scalars[i] : " ")
            case 0x0A:
                out.append(keepLayout ? scalars[i] : " ")
            case 0x0D:
                // CR LF is one line break; a lone CR (which overwrites the line) goes.
                if !keepLayout, i + 1 < scalars.count, scalars[i + 1].value == 0x0A {
                    out.append(" ")
                    i += 2
                    continue
                }
            case 0x2028, 0x2029:
                out.append(keepLayout ? "\n" : " ")
            default:
                if !isControl(v) && !isBidiControl(v) { out.append(scalars[i]) }
            }
            i += 1
        }
        return String(out)
    }

    /// C0 controls, DEL and C1 controls.
    private static func isControl(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v)
    }

    /// Bidirectional embeddings, overrides, isolates and marks.
    private static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
    }

    /// Line and paragraph separators.
    private static func isSeparator(_ v: UInt32) -> Bool {
        v == 0x2028 || v == 0x2029
    }
}
