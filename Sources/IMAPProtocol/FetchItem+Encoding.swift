extension FetchItem {
    /// Writes the item as `UID FETCH` spells it.
    func write(to w: inout CommandWriter) {
        switch self {
        case .uid: w.raw("UID")
        case .flags: w.raw("FLAGS")
        case .internalDate: w.raw("INTERNALDATE")
        case .rfc822Size: w.raw("RFC822.SIZE")
        case .envelope: w.raw("ENVELOPE")
        case .bodyStructure: w.raw("BODYSTRUCTURE")
        case .modSeq: w.raw("MODSEQ")
        case .gmailMessageID: w.raw("X-GM-MSGID")
        case .gmailThreadID: w.raw("X-GM-THRID")
        case .gmailLabels: w.raw("X-GM-LABELS")
        case .body(let section, let peek, let partial):
            w.raw(peek ? "BODY.PEEK[" : "BODY[")
            section.write(to: &w)
            w.raw("]")
            FetchItem.writePartial(partial, to: &w)
        case .binary(let part, let peek, let partial):
            w.raw((peek ? "BINARY.PEEK[" : "BINARY[") + part.map(String.init).joined(separator: ".") + "]")
            FetchItem.writePartial(partial, to: &w)
        case .binarySize(let part):
            w.raw("BINARY.SIZE[" + part.map(String.init).joined(separator: ".") + "]")
        }
    }

    private static func writePartial(_ partial: FetchPartial?, to w: inout CommandWriter) {
        if let partial { w.raw("<\(partial.offset).\(partial.length)>") }
    }
}
