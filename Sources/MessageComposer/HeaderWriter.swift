import Foundation

/// Writes header fields (RFC 5322 §2.2): CRLF line ends, folded at spaces so lines stay within
/// 78 bytes where the text allows, non-ASCII text as RFC 2047 encoded words of at most 75 characters.
struct HeaderWriter {
    /// The line length folding aims for (RFC 5322 §2.1.1).
    static let foldWidth = 78
    /// The most UTF-8 bytes one encoded word carries: 39 bytes are 52 base64 characters, 64 with
    /// `=?utf-8?B?` and `?=`, so "Subject: " and the word fit in 78.
    static let encodedWordBytes = 39

    /// The header section written so far.
    private(set) var bytes: [UInt8] = []

    /// The longest line a message may have (RFC 5322 section 2.1.1), CRLF not counted.
    static let maxLineBytes = 998

    /// Adds `name: value` with `value` made of `tokens`, separated by single spaces and folded
    /// before a token that would pass ``foldWidth``.
    mutating func add(_ name: String, tokens: [String]) {
        bytes.append(contentsOf: HeaderWriter.field(name, tokens: tokens).utf8)
    }

    /// `name: value` with its CRLF, `value` made of `tokens` separated by single spaces, folded before a token that
    /// would pass ``foldWidth``. A fold goes only at a single space between two words (an empty token is a second
    /// space): next to another space, a reader unfolding as RFC 5322 says (the CRLF removed) and one collapsing the
    /// folding white space (as many do, mailstore's parser too) would read the text with different spaces.
    static func field(_ name: String, tokens: [String]) -> String {
        // The tokens in groups that may not be cut: words with a run of spaces (empty tokens) between them.
        var groups: [String] = []
        for (i, token) in tokens.enumerated() {
            if i > 0, token.isEmpty || tokens[i - 1].isEmpty {
                groups[groups.count - 1] += " " + token
            } else {
                groups.append(token)
            }
        }
        var line = name + ":"
        var lineLength = line.utf8.count
        for group in groups {
            let length = group.utf8.count
            if lineLength + 1 + length > HeaderWriter.foldWidth, lineLength > name.utf8.count + 1 {
                line += "\r\n " + group
                lineLength = 1 + length
            } else {
                line += " " + group
                lineLength += 1 + length
            }
        }
        return line + "\r\n"
    }

    /// The bytes of the longest line of `field` (CRLF not counted).
    static func longestLine(_ field: String) -> Int {
        field.utf8.split(separator: 0x0A).map { $0.last == 0x0D ? $0.count - 1 : $0.count }.max() ?? 0
    }

    /// Adds an unstructured field (`Subject`): ASCII text as words, other text as encoded words.
    mutating func add(_ name: String, text: String) {
        let plain = HeaderWriter.field(name, tokens: HeaderWriter.unstructuredTokens(text))
        // Plain words that cannot be folded within a line's 998 bytes (a long word, or long runs of spaces) go as
        // encoded words, which fold anywhere.
        guard HeaderWriter.longestLine(plain) > HeaderWriter.maxLineBytes else {
            bytes.append(contentsOf: plain.utf8)
            return
        }
        add(name, tokens: HeaderWriter.encodedWords(HeaderWriter.sanitized(text)))
    }

    /// The tokens of unstructured `text`, line breaks and controls turned into spaces: its words
    /// when it is printable ASCII without `=?`, else encoded words for all of it.
    static func unstructuredTokens(_ text: String) -> [String] {
        let clean = sanitized(text)
        if isPlainASCII(clean) {
            return clean.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        }
        return encodedWords(clean)
    }

    /// A display name as phrase tokens (RFC 5322 §3.2.5): atoms when it only has atom characters,
    /// else one quoted string when ASCII, else (or when too long for a line) encoded words.
    static func phraseTokens(_ name: String) -> [String] {
        let clean = sanitized(name).trimmingCharacters(in: .init(charactersIn: " "))
        guard !clean.isEmpty else { return [] }
        // Words cannot be folded inside: a name too long for a line (with the field's name and an address of up to
        // 254 bytes) goes as encoded words, which can.
        guard isPlainASCII(clean), clean.utf8.count <= maxLineBytes - 300 else { return encodedWords(clean) }
        let words = clean.split(separator: " ").map(String.init)
        if words.allSatisfy({ $0.unicodeScalars.allSatisfy(isAtomText) }) { return words }
        let escaped = clean.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        // (Escaping at most doubles it: the quoted string may pass the bound above by as much, in a line of 998.)
        guard escaped.utf8.count <= maxLineBytes - 300 else { return encodedWords(clean) }
        return ["\"" + escaped + "\""]
    }

    /// `text` as `=?utf-8?B?...?=` words of at most ``encodedWordBytes`` bytes each, split between
    /// characters (between Unicode scalars only when one character alone is longer).
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        func flush() {
            guard !chunk.isEmpty else { return }
            words.append("=?utf-8?B?" + Base64Lines.encode(chunk) + "?=")
            chunk = []
        }
        for character in text {
            let pieces = character.utf8.count <= encodedWordBytes
                ? [Array(character.utf8)] : character.unicodeScalars.map { Array(String($0).utf8) }
            for piece in pieces {
                if chunk.count + piece.count > encodedWordBytes { flush() }
                chunk.append(contentsOf: piece)
            }
        }
        flush()
        return words
    }

    /// `text` with CR, LF, tabs and other controls replaced by spaces (no header injection).
    static func sanitized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// Printable ASCII (and spaces) without an `=?` that a reader would take for an encoded word.
    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) } && !text.contains("=?")
    }

    /// Whether `scalar` is `atext` (RFC 5322 §3.2.3).
    private static func isAtomText(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let c = Character(scalar)
        return c.isLetter || c.isNumber || "!#$%&'*+-/=?^_`{|}~".contains(c)
    }
}
