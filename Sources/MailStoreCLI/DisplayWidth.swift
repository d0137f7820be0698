/// How many columns text takes on a terminal, for lining up columns of names from mail and servers.
///
/// Per character (grapheme cluster, as Swift's `Character` groups them): an emoji shown as a picture takes 2 columns
/// (its first scalar has Unicode's `Emoji_Presentation`, as `🚀` and `☕` do; or it asks for one with U+FE0F, `❤️`; a
/// flag's regional indicators; a sequence joined with U+200D, `👨‍👩‍👧`, is one picture); otherwise each scalar adds its
/// own width: 2 for East Asian Wide and Fullwidth ones (`徐`, `한`, `Ａ`), 0 for combining marks (`e` + U+0301 is one
/// column), format characters (U+200B, U+2060) and the Hangul vowels and finals that join a syllable, else 1. What a
/// terminal's `wcwidth` says for those, and the picture for an emoji as terminals draw it since Unicode 9. Controls
/// never reach here (the text is sanitised first, `TerminalSanitiser`). Pure.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// The columns one character takes.
    static func of(_ ch: Character) -> Int {
        let scalars = ch.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value)
            || scalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes on its own (`wcwidth`'s rules, controls aside).
    static func of(_ s: Unicode.Scalar) -> Int {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        case .format: return s.value == 0x00AD ? 1 : 0  // the soft hyphen shows
        default: break
        }
        return isWide(s.value) ? 2 : ((0x1160...0x11FF).contains(s.value) || (0xD7B0...0xD7FF).contains(s.value) ? 0 : 1)
    }

    /// East Asian Wide and Fullwidth (Unicode's `EastAsianWidth.txt`, W and F, the emoji left to `Emoji_Presentation`).
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
             0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
