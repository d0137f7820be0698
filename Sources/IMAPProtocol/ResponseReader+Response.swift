extension ResponseReader {
    /// Reads the whole response: continuation, untagged or tagged.
    mutating func readResponse() throws(IMAPParseError) -> IMAPResponse {
        guard let first = peek() else { throw malformed("empty response") }
        if first == IMAPByte.plus {
            pos += 1
            _ = consume(IMAPByte.space)
            let text = readText()
            try expectResponseEnd()
            return .continuation(text)
        }
        if first == IMAPByte.star {
            pos += 1
            try expectSpace()
            return .untagged(try readUntagged())
        }
        let tagRange = read { IMAPByte.isAStringChar($0) && $0 != IMAPByte.plus }
        guard !tagRange.isEmpty else { throw malformed("expected a tag, '*' or '+'") }
        let tag = string(tagRange)
        try expectSpace()
        let word = try readAtom("OK, NO or BAD")
        let status: ResponseStatus
        if IMAPByte.equalsIgnoringCase(bytes[word], "OK") {
            status = .ok
        } else if IMAPByte.equalsIgnoringCase(bytes[word], "NO") {
            status = .no
        } else if IMAPByte.equalsIgnoringCase(bytes[word], "BAD") {
            status = .bad
        } else {
            pos = word.lowerBound
            throw malformed("tagged response status is \"\(string(word))\", not OK, NO or BAD")
        }
        let (code, text) = try readResponseText()
        try expectResponseEnd()
        return .tagged(tag: tag, status: status, code: code, text: text)
    }

    /// Reads `[SP ["[" code "]" [SP]] text]` up to the end of the line.
    ///
    /// A bracket that does not open a well-formed code is kept as part of the text.
    mutating func readResponseText() throws(IMAPParseError) -> (ResponseCode?, String) {
        if atLineEnd { return (nil, "") }
        try expectSpace()
        var code: ResponseCode?
        if peek() == IMAPByte.openBracket {
            let saved = pos
            do throws(IMAPParseError) {
                code = try readResponseCode()
                skipSpaces()
            } catch {
                guard case .malformed = error else { throw error }
                pos = saved
                code = nil
            }
        }
        return (code, readText())
    }
}
