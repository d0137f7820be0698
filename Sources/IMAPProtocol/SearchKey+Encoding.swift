extension SearchKey {
    /// Whether any string in the key holds non-ASCII text (so `CHARSET UTF-8` is needed).
    var hasNonASCIIText: Bool {
        switch self {
        case .from(let s), .to(let s), .cc(let s), .bcc(let s), .subject(let s), .body(let s), .text(let s), .gmailRaw(let s):
            return s.utf8.contains { $0 >= 0x80 }
        case .header(let name, let value):
            return (name + value).utf8.contains { $0 >= 0x80 }
        case .not(let key):
            return key.hasNonASCIIText
        case .or(let a, let b):
            return a.hasNonASCIIText || b.hasNonASCIIText
        case .and(let keys):
            return keys.contains(where: \.hasNonASCIIText)
        default:
            return false
        }
    }

    /// Writes the key as SEARCH spells it.
    func write(to w: inout CommandWriter) throws(IMAPEncodingError) {
        switch self {
        case .all: w.raw("ALL")
        case .answered: w.raw("ANSWERED")
        case .deleted: w.raw("DELETED")
        case .draft: w.raw("DRAFT")
        case .flagged: w.raw("FLAGGED")
        case .seen: w.raw("SEEN")
        case .unanswered: w.raw("UNANSWERED")
        case .undeleted: w.raw("UNDELETED")
        case .undraft: w.raw("UNDRAFT")
        case .unflagged: w.raw("UNFLAGGED")
        case .unseen: w.raw("UNSEEN")
        case .keyword(let k): w.raw("KEYWORD " + (try IMAPCommand.atom(k)))
        case .unkeyword(let k): w.raw("UNKEYWORD " + (try IMAPCommand.atom(k)))
        case .uid(let set): w.raw("UID " + (try IMAPCommand.set(set)))
        case .before(let d): w.raw("BEFORE \(d)")
        case .on(let d): w.raw("ON \(d)")
        case .since(let d): w.raw("SINCE \(d)")
        case .sentBefore(let d): w.raw("SENTBEFORE \(d)")
        case .sentOn(let d): w.raw("SENTON \(d)")
        case .sentSince(let d): w.raw("SENTSINCE \(d)")
        case .larger(let n): w.raw("LARGER \(n)")
        case .smaller(let n): w.raw("SMALLER \(n)")
        case .modSeq(let n): w.raw("MODSEQ \(n)")
        case .gmailMessageID(let n): w.raw("X-GM-MSGID \(n)")
        case .gmailThreadID(let n): w.raw("X-GM-THRID \(n)")
        case .from(let s): SearchKey.keyword("FROM", s, to: &w)
        case .to(let s): SearchKey.keyword("TO", s, to: &w)
        case .cc(let s): SearchKey.keyword("CC", s, to: &w)
        case .bcc(let s): SearchKey.keyword("BCC", s, to: &w)
        case .subject(let s): SearchKey.keyword("SUBJECT", s, to: &w)
        case .body(let s): SearchKey.keyword("BODY", s, to: &w)
        case .text(let s): SearchKey.keyword("TEXT", s, to: &w)
        case .gmailRaw(let s): SearchKey.keyword("X-GM-RAW", s, to: &w)
        case .header(let name, let value):
            w.raw("HEADER ")
            w.astring(Array(name.utf8))
            w.space()
            w.string(value)
        case .not(let key):
            w.raw("NOT ")
            try key.write(to: &w)
        case .or(let a, let b):
            w.raw("OR ")
            try a.write(to: &w)
            w.space()
            try b.write(to: &w)
        case .and(let keys):
            w.raw("(")
            if keys.isEmpty { w.raw("ALL") }
            for (i, key) in keys.enumerated() {
                if i > 0 { w.space() }
                try key.write(to: &w)
            }
            w.raw(")")
        }
    }

    private static func keyword(_ name: String, _ value: String, to w: inout CommandWriter) {
        w.raw(name + " ")
        w.string(value)
    }
}
