/// Header fields the parser interprets, recognised once from the raw
/// name bytes so later stages need no string comparisons.
enum KnownHeader: UInt8, Sendable {
    case other = 0
    case from, sender, replyTo, to, cc, bcc, subject, date, messageID, inReplyTo, references, listID
    case gmailThreadID, received, contentType, contentDisposition, contentTransferEncoding, contentID

    private static let table: [(KnownHeader, String)] = [
        (.from, "from"), (.sender, "sender"), (.replyTo, "reply-to"), (.to, "to"), (.cc, "cc"), (.bcc, "bcc"),
        (.subject, "subject"), (.date, "date"), (.messageID, "message-id"), (.inReplyTo, "in-reply-to"),
        (.references, "references"), (.listID, "list-id"), (.gmailThreadID, "x-gm-thrid"),
        (.received, "received"), (.contentType, "content-type"), (.contentDisposition, "content-disposition"),
        (.contentTransferEncoding, "content-transfer-encoding"), (.contentID, "content-id"),
    ]

    /// Candidates indexed by name length (names are at most 25 bytes).
    private static let byLength: [[(KnownHeader, [UInt8])]] = {
        var table = [[(KnownHeader, [UInt8])]](repeating: [], count: 26)
        for (kind, name) in KnownHeader.table { table[name.utf8.count].append((kind, Array(name.utf8))) }
        return table
    }()

    /// Recognises a field name given as raw bytes.
    static func identify(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> KnownHeader {
        guard r.count < byLength.count else { return .other }
        for (kind, pattern) in byLength[r.count] where ByteScan.hasPrefixIgnoringCase(b, at: r.lowerBound, to: r.upperBound, pattern) {
            return kind
        }
        return .other
    }
}
