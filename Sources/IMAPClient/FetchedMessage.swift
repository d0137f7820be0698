import IMAPProtocol

/// One `FETCH` response: the data the server sent about one message.
package struct FetchedMessage: Sendable {
    /// The message sequence number.
    package var sequence: UInt32
    /// `UID`.
    package var uid: UInt32?
    /// `FLAGS`.
    package var flags: [String]?
    /// `MODSEQ` (CONDSTORE).
    package var modSeq: UInt64?
    /// `RFC822.SIZE`.
    package var size: UInt64?
    /// `INTERNALDATE` in seconds since 1970-01-01T00:00:00Z.
    package var internalDate: Int64?
    /// `BODY[]`: the whole message, byte for byte.
    package var body: [UInt8]?
    /// `X-GM-THRID` (Gmail).
    package var gmailThreadID: UInt64?
    /// `X-GM-MSGID` (Gmail).
    package var gmailMessageID: UInt64?
    /// `X-GM-LABELS` (Gmail).
    package var gmailLabels: [String]?
    /// Every item of the response, as parsed.
    package var attributes: [FetchAttribute]

    /// The message described by the items of `* sequence FETCH (attributes)`.
    package init(sequence: UInt32, attributes: [FetchAttribute]) {
        self.sequence = sequence
        self.attributes = attributes
        uid = attributes.uid
        flags = attributes.flags
        modSeq = attributes.modSeq
        size = attributes.rfc822Size
        body = attributes.bodyData(section: "")
        gmailMessageID = attributes.gmailMessageID
        for attribute in attributes {
            switch attribute {
            case .internalDate(_, let epochSeconds): internalDate = epochSeconds
            case .gmailThreadID(let id): gmailThreadID = id
            case .gmailLabels(let labels): gmailLabels = labels
            default: break
            }
        }
    }

    /// The data of `BODY[section]` for the section text between the brackets, e.g.
    /// `"HEADER.FIELDS (MESSAGE-ID)"` (compared ASCII case-insensitively); nil when absent or NIL.
    package func section(_ text: String) -> [UInt8]? {
        attributes.bodyData(section: text)
    }
}
