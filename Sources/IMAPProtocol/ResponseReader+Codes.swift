extension ResponseReader {
    /// Reads a bracketed response code. Known codes with unreadable arguments are returned
    /// as ``ResponseCode/other(name:raw:)``.
    mutating func readResponseCode() throws(IMAPParseError) -> ResponseCode {
        try expect(IMAPByte.openBracket, "'['")
        let name = try readUpperAtom("a response code")
        let afterName = pos
        do throws(IMAPParseError) {
            if let code = try readKnownCodeArguments(name) {
                skipSpaces()
                try expect(IMAPByte.closeBracket, "']' closing the response code")
                return code
            }
        } catch {
            guard case .malformed = error else { throw error }
            pos = afterName
        }
        var raw: String?
        if consume(IMAPByte.space) {
            let from = pos
            while let b = peek(), b != IMAPByte.closeBracket {
                if b == IMAPByte.cr || b == IMAPByte.lf { throw malformed("line ends inside a response code") }
                if b == IMAPByte.quote {
                    _ = try readQuoted()
                } else {
                    pos += 1
                }
            }
            raw = string(from..<pos)
        }
        try expect(IMAPByte.closeBracket, "']' closing the response code")
        return .other(name: name, raw: raw)
    }

    /// Reads the arguments of a code this module models; nil for other codes.
    private mutating func readKnownCodeArguments(_ name: String) throws(IMAPParseError) -> ResponseCode? {
        switch name {
        case "ALERT": return .alert
        case "PARSE": return .parse
        case "READ-ONLY": return .readOnly
        case "READ-WRITE": return .readWrite
        case "TRYCREATE": return .tryCreate
        case "NOMODSEQ": return .noModSeq
        case "UIDNOTSTICKY": return .uidNotSticky
        case "ALREADYEXISTS": return .alreadyExists
        case "NONEXISTENT": return .nonExistent
        case "CLOSED": return .closed
        case "UIDVALIDITY":
            try expectSpace()
            return .uidValidity(try readNumber(UInt32.self, "a UIDVALIDITY value"))
        case "UIDNEXT":
            try expectSpace()
            return .uidNext(try readNumber(UInt32.self, "a UIDNEXT value"))
        case "UNSEEN":
            try expectSpace()
            return .unseen(try readNumber(UInt32.self, "an UNSEEN value"))
        case "HIGHESTMODSEQ":
            try expectSpace()
            return .highestModSeq(try readNumber(UInt64.self, "a HIGHESTMODSEQ value"))
        case "PERMANENTFLAGS":
            try expectSpace()
            return .permanentFlags(try readFlagList("permanent flags", depth: 1))
        case "CAPABILITY":
            return .capability(try readCapabilityNames())
        case "APPENDUID":
            try expectSpace()
            let validity = try readNumber(UInt32.self, "an APPENDUID UIDVALIDITY")
            try expectSpace()
            return .appendUID(uidValidity: validity, uids: try readSequenceSet("APPENDUID UIDs"))
        case "COPYUID":
            try expectSpace()
            let validity = try readNumber(UInt32.self, "a COPYUID UIDVALIDITY")
            try expectSpace()
            let source = try readSequenceSet("COPYUID source UIDs")
            try expectSpace()
            return .copyUID(uidValidity: validity, source: source, destination: try readSequenceSet("COPYUID destination UIDs"))
        case "MODIFIED":
            try expectSpace()
            return .modified(try readSequenceSet("MODIFIED set"))
        default:
            return nil
        }
    }

    /// Reads space-separated capability names until the end of the line or a `]`.
    mutating func readCapabilityNames() throws(IMAPParseError) -> [String] {
        var names: [String] = []
        while true {
            skipSpaces()
            if atLineEnd || peek() == IMAPByte.closeBracket { return names }
            names.append(string(try readAtom("a capability name")))
        }
    }
}
