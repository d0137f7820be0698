import IMAPProtocol

/// One `FETCH` response: the data the server sent about one message.
public struct FetchedMessage: Sendable {
    /// The message sequence number.
    public var sequence: UInt32
    /// `UID`.
    public var uid: UInt32?
    /// `FLAGS`.
    public var flags: [String]?
    /// `MODSEQ` (CONDSTORE).
    public var modSeq: UInt64?
    /// `RFC822.SIZE`.
    public var size: UInt64?
    /// `INTERNALDATE` in seconds since 1970-01-01T00:00:00Z.
    public var internalDate: Int64?
    /// `BODY[]`: the whole message, byte for byte.
    public var body: [UInt8]?
    /// `X-GM-THRID` (Gmail).
    public var gmailThreadID: UInt64?
    /// `X-GM-MSGID` (Gmail).
    public var gmailMessageID: UInt64?
    /// `X-GM-LABELS` (Gmail).
    public var gmailLabels: [String]?
    /// Every item of the response, as parsed.
    public var attributes: [FetchAttribute]

    /// The message described by the items of `* sequence FETCH (attributes)`.
    public init(sequence: UInt32, attributes: [FetchAttribute]) {
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
    public func section(_ text: String) -> [UInt8]? {
        attributes.bodyData(section: text)
    }
}
