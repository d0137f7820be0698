/// A name as a shell word the user can type back: as it is when every character shows as itself, else in bash's
/// `$'…'` quoting with each control, format (zero-width, bidi), separator and non-ASCII space character written
/// `\uXXXX` (or `\UXXXXXXXX`), and quotes where leading or trailing spaces would be lost. For names the terminal text
/// changes (a folder named with U+202E showed as its letters reversed, one with U+200B as two words joined, one with a
/// trailing space as another), which `--folder` then could not find.
enum ShellWord {
    /// `name` as a word bash reads back to the same bytes.
    static func quoted(_ name: String) -> String {
        let hidden = name.unicodeScalars.contains(where: isHidden)
        let plain = name.unicodeScalars.allSatisfy { $0.isASCII && (isPlainASCII($0)) }
        if !hidden && plain && !name.isEmpty { return name }
        if !hidden {
            // Shows as itself but needs quoting for the shell (spaces, quotes, `$`): single quotes, `'` as `'\''`.
            return "'" + name.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var out = "$'"
        for s in name.unicodeScalars {
            switch s {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if isHidden(s) {
                    out += s.value > 0xFFFF ? "\\U" + hex(s.value, 8) : "\\u" + hex(s.value, 4)
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "'"
    }

    /// A character that does not show as itself: controls, format characters (zero-width, bidi, the BOM), line and
    /// paragraph separators, spaces other than U+0020.
    private static func isHidden(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        case .spaceSeparator: return s != " "
        default: return false
        }
    }

    /// ASCII letters, digits and the punctuation a shell passes through unquoted.
    private static func isPlainASCII(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "/", ".", "_", "-", "+", ",", ":", "@", "%", "=": return true
        default: return false
        }
    }

    private static func hex(_ v: UInt32, _ width: Int) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
