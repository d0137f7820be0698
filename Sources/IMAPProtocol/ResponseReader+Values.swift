extension ResponseReader {
    /// Whether the cursor is at the atom `NIL` (case-insensitive, followed by a delimiter).
    var atNIL: Bool {
        guard pos + 3 <= end, IMAPByte.equalsIgnoringCase(bytes[pos..<(pos + 3)], "NIL") else { return false }
        guard let after = peek(at: 3) else { return true }
        return !IMAPByte.isLooseTokenChar(after)
    }

    /// Whether the cursor is at a literal (`{` or `~{`).
    var atLiteral: Bool {
        peek() == IMAPByte.openBrace || (peek() == IMAPByte.tilde && peek(at: 1) == IMAPByte.openBrace)
    }

    /// Reads a quoted string, removing `\` escapes.
    mutating func readQuoted() throws(IMAPParseError) -> [UInt8] {
        try expect(IMAPByte.quote, "a quoted string")
        let from = pos
        while pos < end {
            let b = bytes[pos]
            if b == IMAPByte.quote {
                let out = Array(bytes[from..<pos])
                pos += 1
                return out
            }
            if b == IMAPByte.backslash { break }
            if b == IMAPByte.cr || b == IMAPByte.lf { throw malformed("line ends inside a quoted string") }
            pos += 1
        }
        var out = Array(bytes[from..<pos])
        while pos < end {
            var b = bytes[pos]
            if b == IMAPByte.quote {
                pos += 1
                return out
            }
            if b == IMAPByte.backslash {
                pos += 1
                guard pos < end else { break }
                b = bytes[pos]
            }
            if b == IMAPByte.cr || b == IMAPByte.lf { throw malformed("line ends inside a quoted string") }
            out.append(b)
            pos += 1
        }
        throw malformed("unterminated quoted string")
    }

    /// Reads a literal `{n}`/`{n+}`/`~{n}`, its line terminator and its `n` bytes.
    mutating func readLiteral() throws(IMAPParseError) -> [UInt8] {
        _ = consume(IMAPByte.tilde)
        try expect(IMAPByte.openBrace, "a literal")
        let size = try readNumber(UInt64.self, "a literal size")
        _ = consume(IMAPByte.plus)
        try expect(IMAPByte.closeBrace, "'}' closing a literal size")
        _ = consume(IMAPByte.cr)
        try expect(IMAPByte.lf, "a line end after a literal size")
        guard size <= UInt64(end - pos) else { throw malformed("literal extends past the response") }
        let out = Array(bytes[pos..<(pos + Int(size))])
        pos += Int(size)
        return out
    }

    /// Reads a string: quoted or literal.
    mutating func readString(_ what: String) throws(IMAPParseError) -> [UInt8] {
        if peek() == IMAPByte.quote { return try readQuoted() }
        if atLiteral { return try readLiteral() }
        throw malformed("expected \(what) (a quoted string or literal)")
    }

    /// Reads `NIL` (nil) or a string.
    mutating func readNString(_ what: String) throws(IMAPParseError) -> [UInt8]? {
        if atNIL {
            pos += 3
            return nil
        }
        return try readString(what)
    }

    /// Reads an astring: an atom (ASTRING-CHAR) or a string.
    mutating func readAString(_ what: String) throws(IMAPParseError) -> [UInt8] {
        if peek() == IMAPByte.quote || atLiteral { return try readString(what) }
        let range = read(while: IMAPByte.isAStringChar)
        guard !range.isEmpty else { throw malformed("expected \(what)") }
        return Array(bytes[range])
    }

    /// Reads a parenthesised list of flags, attributes or labels: bare tokens (`\Seen`,
    /// `$Junk`, `\*`), quoted strings or literals. Items are returned as bytes.
    mutating func readTokenList(_ what: String, depth: Int) throws(IMAPParseError) -> [[UInt8]] {
        guard depth <= maxDepth else { throw .nestingTooDeep(limit: maxDepth) }
        try expect(IMAPByte.openParen, "'(' opening \(what)")
        var items: [[UInt8]] = []
        while true {
            skipSpaces()
            guard let b = peek() else { throw malformed("unterminated \(what)") }
            if b == IMAPByte.closeParen {
                pos += 1
                return items
            }
            if b == IMAPByte.quote || atLiteral {
                items.append(try readString(what))
            } else {
                let range = read(while: IMAPByte.isLooseTokenChar)
                guard !range.isEmpty else { throw malformed("unexpected byte in \(what)") }
                items.append(Array(bytes[range]))
            }
        }
    }

    /// Reads a parenthesised list of flags as Strings.
    mutating func readFlagList(_ what: String, depth: Int) throws(IMAPParseError) -> [String] {
        try readTokenList(what, depth: depth).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads any value: atom, number, string, NIL or a nested list. `depth` is the nesting
    /// level of the list the value sits in.
    mutating func readValue(depth: Int) throws(IMAPParseError) -> IMAPValue {
        guard let b = peek() else { throw malformed("expected a value") }
        if b == IMAPByte.openParen { return .list(try readList(depth: depth + 1)) }
        if b == IMAPByte.quote || atLiteral { return .string(try readString("a string")) }
        if atNIL {
            pos += 3
            return .nilValue
        }
        let range = read(while: IMAPByte.isLooseTokenChar)
        guard !range.isEmpty else { throw malformed("expected a value") }
        return .atom(string(range))
    }

    /// Reads a parenthesised list of values at nesting level `depth`.
    mutating func readList(depth: Int) throws(IMAPParseError) -> [IMAPValue] {
        guard depth <= maxDepth else { throw .nestingTooDeep(limit: maxDepth) }
        try expect(IMAPByte.openParen, "'('")
        var items: [IMAPValue] = []
        while true {
            skipSpaces()
            guard let b = peek() else { throw malformed("unterminated list") }
            if b == IMAPByte.closeParen {
                pos += 1
                return items
            }
            if b == IMAPByte.cr || b == IMAPByte.lf { throw malformed("line ends inside a list") }
            items.append(try readValue(depth: depth))
        }
    }

    /// Reads a sequence set such as `1:5,7,9:*`.
    mutating func readSequenceSet(_ what: String) throws(IMAPParseError) -> UIDSet {
        let range = read { IMAPByte.isDigit($0) || $0 == IMAPByte.colon || $0 == IMAPByte.comma || $0 == IMAPByte.star }
        do throws(UIDSetParseError) {
            return try UIDSet(parsing: bytes[range])
        } catch {
            pos = range.lowerBound
            throw malformed("invalid \(what): \(error)")
        }
    }

    /// Reads a mailbox name (an astring).
    mutating func readMailbox() throws(IMAPParseError) -> MailboxName {
        MailboxName(raw: try readAString("a mailbox name"))
    }

    /// Reads a hierarchy delimiter: `NIL` or a one-character string.
    mutating func readDelimiter() throws(IMAPParseError) -> String? {
        guard let bytes = try readNString("a hierarchy delimiter") else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
