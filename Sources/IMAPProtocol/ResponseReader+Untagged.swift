extension ResponseReader {
    /// Reads an untagged response after `* `.
    mutating func readUntagged() throws(IMAPParseError) -> UntaggedResponse {
        let bodyStart = pos
        if let b = peek(), IMAPByte.isDigit(b) {
            let number = try readNumber(UInt32.self, "a message number")
            try expectSpace()
            let name = try readUpperAtom("a response name")
            switch name {
            case "EXISTS":
                try expectResponseEnd()
                return .exists(number)
            case "RECENT":
                try expectResponseEnd()
                return .recent(number)
            case "EXPUNGE":
                try expectResponseEnd()
                return .expunge(number)
            case "FETCH":
                try expectSpace()
                let attributes = try readFetchAttributes()
                try expectResponseEnd()
                return .fetch(seq: number, attributes: attributes)
            default:
                return other(name, from: bodyStart)
            }
        }
        let name = try readUpperAtom("a response name")
        switch name {
        case "OK", "NO", "BAD", "BYE", "PREAUTH":
            let condition = UntaggedCondition(rawValue: name) ?? .ok
            let (code, text) = try readResponseText()
            try expectResponseEnd()
            return .condition(condition, code: code, text: text)
        case "CAPABILITY":
            let names = try readCapabilityNames()
            try expectResponseEnd()
            return .capability(names)
        case "ENABLED":
            let names = try readCapabilityNames()
            try expectResponseEnd()
            return .enabled(names)
        case "LIST":
            return .list(try readListItem())
        case "LSUB":
            return .lsub(try readListItem())
        case "STATUS":
            return try readStatus()
        case "SEARCH":
            return try readSearch()
        case "ESEARCH":
            return .esearch(try readESearch())
        case "FLAGS":
            try expectSpace()
            let flags = try readFlagList("flags", depth: 1)
            try expectResponseEnd()
            return .flags(flags)
        case "VANISHED":
            try expectSpace()
            var earlier = false
            if peek() == IMAPByte.openParen {
                let modifiers = try readList(depth: 1)
                earlier = modifiers.contains { $0.text.map { IMAPByte.equalsIgnoringCase($0.utf8, "EARLIER") } ?? false }
                try expectSpace()
            }
            let uids = try readSequenceSet("VANISHED UIDs")
            try expectResponseEnd()
            return .vanished(earlier: earlier, uids: uids)
        case "ID":
            return try readID()
        case "NAMESPACE":
            return try readNamespace()
        case "MYRIGHTS":
            try expectSpace()
            let mailbox = try readMailbox()
            try expectSpace()
            let rights = try readAString("rights")
            try expectResponseEnd()
            return .myRights(mailbox: mailbox, rights: String(decoding: rights, as: UTF8.self))
        default:
            return other(name, from: bodyStart)
        }
    }

    /// An unknown response: its name and the raw bytes from `from` to the line terminator.
    private mutating func other(_ name: String, from: Int) -> UntaggedResponse {
        let raw = Array(bytes[from..<contentEnd])
        pos = end
        return .other(name: name, raw: raw)
    }

    /// Reads `(attributes) delimiter mailbox [extended-data]` and the response end.
    private mutating func readListItem() throws(IMAPParseError) -> ListItem {
        try expectSpace()
        let attributes = try readFlagList("mailbox attributes", depth: 1)
        try expectSpace()
        let delimiter = try readDelimiter()
        try expectSpace()
        let mailbox = try readMailbox()
        skipSpaces()
        var extended: IMAPValue?
        if peek() == IMAPByte.openParen {
            extended = .list(try readList(depth: 1))
        }
        try expectResponseEnd()
        return ListItem(attributes: attributes, delimiter: delimiter, mailbox: mailbox, extendedData: extended)
    }

    /// Reads `mailbox (name value ...)` and the response end.
    private mutating func readStatus() throws(IMAPParseError) -> UntaggedResponse {
        try expectSpace()
        let mailbox = try readMailbox()
        try expectSpace()
        try expect(IMAPByte.openParen, "'(' opening STATUS attributes")
        var attributes: [String: UInt64] = [:]
        while true {
            skipSpaces()
            if consume(IMAPByte.closeParen) { break }
            let key = try readUpperAtom("a STATUS attribute")
            try expectSpace()
            if let b = peek(), IMAPByte.isDigit(b) {
                attributes[key] = try readNumber(UInt64.self, "a STATUS value")
            } else {
                _ = try readValue(depth: 1)
            }
        }
        try expectResponseEnd()
        return .status(mailbox: mailbox, attributes: attributes)
    }

    /// Reads `n ... [(MODSEQ m)]` and the response end.
    private mutating func readSearch() throws(IMAPParseError) -> UntaggedResponse {
        var numbers: [UInt32] = []
        var modSeq: UInt64?
        while true {
            skipSpaces()
            if atLineEnd { break }
            if consume(IMAPByte.openParen) {
                skipSpaces()
                let word = try readAtom("MODSEQ")
                guard IMAPByte.equalsIgnoringCase(bytes[word], "MODSEQ") else {
                    pos = word.lowerBound
                    throw malformed("expected MODSEQ in SEARCH response")
                }
                try expectSpace()
                modSeq = try readNumber(UInt64.self, "a MODSEQ value")
                skipSpaces()
                try expect(IMAPByte.closeParen, "')' closing MODSEQ")
            } else {
                numbers.append(try readNumber(UInt32.self, "a message number"))
            }
        }
        try expectResponseEnd()
        return .search(numbers, modSeq: modSeq)
    }

    /// Reads `[(TAG "t")] [UID] *(name value)` and the response end.
    private mutating func readESearch() throws(IMAPParseError) -> ESearchResponse {
        var result = ESearchResponse()
        skipSpaces()
        if peek() == IMAPByte.openParen {
            let correlator = try readList(depth: 1)
            var i = 0
            while i + 1 < correlator.count {
                if let key = correlator[i].text, IMAPByte.equalsIgnoringCase(key.utf8, "TAG") {
                    result.tag = correlator[i + 1].text
                }
                i += 2
            }
        }
        while true {
            skipSpaces()
            if atLineEnd { break }
            let name = try readUpperAtom("search return data")
            if name == "UID" {
                result.isUID = true
                continue
            }
            try expectSpace()
            switch name {
            case "MIN": result.min = try readNumber(UInt32.self, "an ESEARCH MIN")
            case "MAX": result.max = try readNumber(UInt32.self, "an ESEARCH MAX")
            case "COUNT": result.count = try readNumber(UInt32.self, "an ESEARCH COUNT")
            case "ALL": result.all = try readSequenceSet("ESEARCH ALL set")
            case "MODSEQ": result.modSeq = try readNumber(UInt64.self, "an ESEARCH MODSEQ")
            default: result.other[name] = try readValue(depth: 0)
            }
        }
        try expectResponseEnd()
        return result
    }

    /// Reads `NIL` or `(field value ...)` and the response end.
    private mutating func readID() throws(IMAPParseError) -> UntaggedResponse {
        try expectSpace()
        var fields: [String: String?] = [:]
        if atNIL {
            pos += 3
        } else {
            try expect(IMAPByte.openParen, "'(' or NIL after ID")
            while true {
                skipSpaces()
                if consume(IMAPByte.closeParen) { break }
                let key = String(decoding: try readAString("an ID field name"), as: UTF8.self)
                try expectSpace()
                let value = try readNString("an ID field value").map { String(decoding: $0, as: UTF8.self) }
                fields[key] = .some(value)
            }
        }
        try expectResponseEnd()
        return .id(fields)
    }

    /// Reads the three namespace lists and the response end.
    private mutating func readNamespace() throws(IMAPParseError) -> UntaggedResponse {
        var groups: [[NamespaceDescription]] = []
        for _ in 0..<3 {
            try expectSpace()
            if atNIL {
                pos += 3
                groups.append([])
                continue
            }
            try expect(IMAPByte.openParen, "'(' or NIL in NAMESPACE")
            var descriptions: [NamespaceDescription] = []
            while true {
                skipSpaces()
                if consume(IMAPByte.closeParen) { break }
                try expect(IMAPByte.openParen, "'(' opening a namespace")
                skipSpaces()
                let prefix = MailboxName(raw: try readString("a namespace prefix"))
                try expectSpace()
                let delimiter = try readDelimiter()
                var extensions: [IMAPValue] = []
                while true {
                    skipSpaces()
                    if consume(IMAPByte.closeParen) { break }
                    if atLineEnd { throw malformed("unterminated namespace") }
                    extensions.append(try readValue(depth: 2))
                }
                descriptions.append(NamespaceDescription(prefix: prefix, delimiter: delimiter, extensions: extensions))
            }
            groups.append(descriptions)
        }
        try expectResponseEnd()
        return .namespace(NamespaceResponse(personal: groups[0], otherUsers: groups[1], shared: groups[2]))
    }
}
