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

    /// Adds `name: value` with `value` made of `tokens`, separated by single spaces and folded
    /// before a token that would pass ``foldWidth``.
    mutating func add(_ name: String, tokens: [String]) {
        var line = name + ":"
        var lineLength = line.utf8.count
        for token in tokens {
            let length = token.utf8.count
            if lineLength + 1 + length > HeaderWriter.foldWidth, lineLength > name.utf8.count + 1 {
                line += "\r\n " + token
                lineLength = 1 + length
            } else {
                line += " " + token
                lineLength += 1 + length
            }
        }
        bytes.append(contentsOf: (line + "\r\n").utf8)
    }

    /// Adds an unstructured field (`Subject`): ASCII text as words, other text as encoded words.
    mutating func add(_ name: String, text: String) {
        add(name, tokens: HeaderWriter.unstructuredTokens(text))
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
    /// else one quoted string when ASCII, else encoded words.
    static func phraseTokens(_ name: String) -> [String] {
        let clean = sanitized(name).trimmingCharacters(in: .init(charactersIn: " "))
        guard !clean.isEmpty else { return [] }
        guard isPlainASCII(clean) else { return encodedWords(clean) }
        let words = clean.split(separator: " ").map(String.init)
        if words.allSatisfy({ $0.unicodeScalars.allSatisfy(isAtomText) }) { return words }
        let escaped = clean.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
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
