extension BodySection {
    /// `text` (what goes between the brackets of `BODY[...]`) in the spelling the response parser gives
    /// echoed sections: header field names that are atoms unquoted (`HEADER.FIELDS ("MESSAGE-ID")` becomes
    /// `HEADER.FIELDS (MESSAGE-ID)`). Text that is not a well-formed section comes back unchanged.
    package static func canonicalText(_ text: String) -> String {
        guard text.utf8.contains(IMAPByte.quote) || text.utf8.contains(IMAPByte.openBrace) else { return text }
        let bytes = [IMAPByte.openBracket] + Array(text.utf8) + [IMAPByte.closeBracket, IMAPByte.cr, IMAPByte.lf]
        var reader = ResponseReader(bytes: bytes, start: 0, end: bytes.count, streamOffset: 0, maxDepth: 1)
        guard let canonical = try? reader.readSection(), reader.pos == bytes.count - 2 else { return text }
        return canonical
    }
}
