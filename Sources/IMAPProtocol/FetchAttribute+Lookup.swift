extension Collection where Element == FetchAttribute {
    /// The `UID` item, if present.
    package var uid: UInt32? {
        for case .uid(let v) in self { return v }
        return nil
    }

    /// The `FLAGS` item, if present.
    package var flags: [String]? {
        for case .flags(let v) in self { return v }
        return nil
    }

    /// The `MODSEQ` item, if present.
    package var modSeq: UInt64? {
        for case .modSeq(let v) in self { return v }
        return nil
    }

    /// The `RFC822.SIZE` item, if present.
    package var rfc822Size: UInt64? {
        for case .rfc822Size(let v) in self { return v }
        return nil
    }

    /// The `X-GM-MSGID` item, if present.
    package var gmailMessageID: UInt64? {
        for case .gmailMessageID(let v) in self { return v }
        return nil
    }

    /// The data of the first `BODY[section]` item whose section equals `section`
    /// (ASCII case-insensitive; `""` is the whole message; header field names may be given as atoms or
    /// quoted strings, as the server may echo either). Nil when absent or `NIL`.
    package func bodyData(section: String = "") -> [UInt8]? {
        let wanted = Array(BodySection.canonicalText(section).utf8).map(IMAPByte.upper)
        for case .body(let s, _, let data) in self where Array(s.utf8).map(IMAPByte.upper) == wanted {
            return data
        }
        return nil
    }
}
