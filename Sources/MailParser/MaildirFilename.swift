/// Maildir file names: `unique:2,FLAGS` (or `unique!2,FLAGS` where `:` is
/// not allowed in file names).
package enum MaildirFilename {
    /// IMAP flags for the info letters of a maildir file name, in the order
    /// the letters appear: S `\Seen`, F `\Flagged`, R `\Answered`,
    /// T `\Deleted`, D `\Draft`, P `$Forwarded`. Other letters (such as
    /// lowercase keyword letters) are ignored.
    package static func flags(of filename: String) -> [String] {
        guard let info = infoLetters(of: filename) else { return [] }
        var result: [String] = []
        // The letters are ASCII: read as bytes (walking `Character`s breaks graphemes, a listing's cost per file).
        for byte in info.utf8 {
            let flag: String
            switch byte {
            case UInt8(ascii: "S"): flag = "\\Seen"
            case UInt8(ascii: "F"): flag = "\\Flagged"
            case UInt8(ascii: "R"): flag = "\\Answered"
            case UInt8(ascii: "T"): flag = "\\Deleted"
            case UInt8(ascii: "D"): flag = "\\Draft"
            case UInt8(ascii: "P"): flag = "$Forwarded"
            default: continue
            }
            if !result.contains(flag) { result.append(flag) }
        }
        return result
    }

    /// The unique part of the name (before `:2,` / `!2,`), path removed.
    package static func uniquePart(of filename: String) -> String {
        let base = basename(filename)
        if let r = infoRange(base) { return String(base[..<r.lowerBound]) }
        return String(base)
    }

    /// The letters after `:2,` / `!2,`, or nil when there is no info part.
    package static func infoLetters(of filename: String) -> Substring? {
        let base = basename(filename)
        guard let r = infoRange(base) else { return nil }
        return base[r.upperBound...]
    }

    private static func basename(_ s: String) -> Substring {
        if let slash = s.utf8.lastIndex(of: UInt8(ascii: "/")) { return s[s.utf8.index(after: slash)...] }
        return s[...]
    }

    /// The range of the last `:2,` or `!2,`.
    private static func infoRange(_ s: Substring) -> Range<String.Index>? {
        let u = s.utf8
        var i = u.endIndex
        while i != u.startIndex {
            i = u.index(before: i)
            guard u[i] == ASCII.colon || u[i] == ASCII.exclamation else { continue }
            let two = u.index(after: i)
            guard two != u.endIndex, u[two] == 0x32 else { continue }  // "2"
            let comma = u.index(after: two)
            guard comma != u.endIndex, u[comma] == ASCII.comma else { continue }
            return i..<u.index(after: comma)
        }
        return nil
    }
}
