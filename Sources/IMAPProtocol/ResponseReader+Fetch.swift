extension ResponseReader {
    /// Reads the parenthesised list of a FETCH response.
    mutating func readFetchAttributes() throws(IMAPParseError) -> [FetchAttribute] {
        guard 1 <= maxDepth else { throw .nestingTooDeep(limit: maxDepth) }
        try expect(IMAPByte.openParen, "'(' opening FETCH data")
        var attributes: [FetchAttribute] = []
        while true {
            skipSpaces()
            guard let b = peek() else { throw malformed("unterminated FETCH data") }
            if b == IMAPByte.closeParen {
                pos += 1
                return attributes
            }
            if b == IMAPByte.cr || b == IMAPByte.lf { throw malformed("line ends inside FETCH data") }
            attributes.append(try readFetchAttribute())
        }
    }

    /// Reads one `name value` item of FETCH data.
    private mutating func readFetchAttribute() throws(IMAPParseError) -> FetchAttribute {
        let nameRange = read { IMAPByte.isAtomChar($0) && $0 != IMAPByte.openBracket && $0 != IMAPByte.lessThan }
        guard !nameRange.isEmpty else { throw malformed("expected a FETCH item name") }
        let name = IMAPByte.upperString(bytes[nameRange])
        switch name {
        case "UID":
            try expectSpace()
            return .uid(try readNumber(UInt32.self, "a UID"))
        case "FLAGS":
            try expectSpace()
            return .flags(try readFlagList("flags", depth: 2))
        case "MODSEQ":
            try expectSpace()
            try expect(IMAPByte.openParen, "'(' opening MODSEQ")
            skipSpaces()
            let value = try readNumber(UInt64.self, "a MODSEQ value")
            skipSpaces()
            try expect(IMAPByte.closeParen, "')' closing MODSEQ")
            return .modSeq(value)
        case "INTERNALDATE":
            try expectSpace()
            let raw = try readString("an INTERNALDATE")
            return .internalDate(raw: String(decoding: raw, as: UTF8.self), epochSeconds: InternalDate(parsing: raw)?.epochSeconds)
        case "RFC822.SIZE":
            try expectSpace()
            return .rfc822Size(try readNumber(UInt64.self, "an RFC822.SIZE"))
        case "RFC822", "RFC822.HEADER", "RFC822.TEXT":
            try expectSpace()
            let data = try readNString("RFC822 data")
            let section = name == "RFC822" ? "" : (name == "RFC822.HEADER" ? "HEADER" : "TEXT")
            return .body(section: section, origin: nil, data: data)
        case "BODY" where peek() == IMAPByte.openBracket:
            let section = try readSection()
            let origin = try readOrigin()
            try expectSpace()
            return .body(section: section, origin: origin, data: try readNString("BODY data"))
        case "BINARY" where peek() == IMAPByte.openBracket:
            let section = try readSection()
            let origin = try readOrigin()
            try expectSpace()
            return .binary(section: section, origin: origin, data: try readNString("BINARY data"))
        case "BINARY.SIZE" where peek() == IMAPByte.openBracket:
            let section = try readSection()
            try expectSpace()
            return .binarySize(section: section, size: try readNumber(UInt64.self, "a BINARY.SIZE"))
        case "BODY", "BODYSTRUCTURE":
            try expectSpace()
            return .bodyStructure(try readValue(depth: 1), extensible: name == "BODYSTRUCTURE")
        case "ENVELOPE":
            try expectSpace()
            let value = try readValue(depth: 1)
            if let envelope = IMAPEnvelope(value) { return .envelope(envelope) }
            return .other(name: name, value: value)
        case "X-GM-MSGID":
            try expectSpace()
            return .gmailMessageID(try readNumber(UInt64.self, "an X-GM-MSGID"))
        case "X-GM-THRID":
            try expectSpace()
            return .gmailThreadID(try readNumber(UInt64.self, "an X-GM-THRID"))
        case "X-GM-LABELS":
            try expectSpace()
            let labels = try readTokenList("Gmail labels", depth: 2).map { raw in
                (try? ModifiedUTF7.decode(raw)) ?? String(decoding: raw, as: UTF8.self)
            }
            return .gmailLabels(labels)
        default:
            var fullName = name
            if peek() == IMAPByte.openBracket {
                fullName += "[" + (try readSection()) + "]"
            }
            if let origin = try readOrigin() {
                fullName += "<\(origin)>"
            }
            if atLineEnd || peek() == IMAPByte.closeParen {
                return .other(name: fullName, value: .nilValue)
            }
            try expectSpace()
            return .other(name: fullName, value: try readValue(depth: 1))
        }
    }

    /// Reads `[section]` and returns the text between the brackets in one canonical spelling, whatever
    /// form the server echoed: a header field name sent as a quoted string or a literal (RFC 3501's
    /// `header-fld-name = astring`, as Courier answers `HEADER.FIELDS ("MESSAGE-ID")`) comes back as an
    /// atom when it is one (`HEADER.FIELDS (MESSAGE-ID)`), else in quoted form. Case is kept (lookups
    /// compare ASCII case-insensitively).
    mutating func readSection() throws(IMAPParseError) -> String {
        try expect(IMAPByte.openBracket, "'['")
        var out: [UInt8] = []
        while true {
            guard let b = peek() else { throw malformed("unterminated section") }
            if b == IMAPByte.closeBracket {
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b == IMAPByte.cr || b == IMAPByte.lf { throw malformed("line ends inside a section") }
            if b == IMAPByte.quote || atLiteral {
                let value = try readString("a header field name")
                if !value.isEmpty && value.allSatisfy(IMAPByte.isStrictAtomChar) {
                    out.append(contentsOf: value)
                    continue
                }
                out.append(IMAPByte.quote)
                for c in value {
                    if c == IMAPByte.quote || c == IMAPByte.backslash { out.append(IMAPByte.backslash) }
                    out.append(c)
                }
                out.append(IMAPByte.quote)
                continue
            }
            out.append(b)
            pos += 1
        }
    }

    /// Reads an optional `<origin>` after a section.
    mutating func readOrigin() throws(IMAPParseError) -> UInt32? {
        guard consume(IMAPByte.lessThan) else { return nil }
        let origin = try readNumber(UInt32.self, "a partial origin")
        try expect(IMAPByte.greaterThan, "'>' closing a partial origin")
        return origin
    }
}
