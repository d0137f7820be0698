/// A data item to request with `UID FETCH`.
package enum FetchItem: Hashable, Sendable {
    /// `UID`.
    case uid
    /// `FLAGS`.
    case flags
    /// `INTERNALDATE`.
    case internalDate
    /// `RFC822.SIZE`.
    case rfc822Size
    /// `ENVELOPE`.
    case envelope
    /// `BODYSTRUCTURE`.
    case bodyStructure
    /// `MODSEQ` (RFC 7162).
    case modSeq
    /// `BODY[section]<partial>`, or `BODY.PEEK[...]` when `peek` (which leaves `\Seen` alone).
    case body(BodySection, peek: Bool = true, partial: FetchPartial? = nil)
    /// `BINARY[part]<partial>` / `BINARY.PEEK[...]` (RFC 3516): the part with its
    /// content-transfer-encoding removed.
    case binary(part: [UInt32], peek: Bool = true, partial: FetchPartial? = nil)
    /// `BINARY.SIZE[part]` (RFC 3516).
    case binarySize(part: [UInt32])
    /// `X-GM-MSGID` (Gmail).
    case gmailMessageID
    /// `X-GM-THRID` (Gmail).
    case gmailThreadID
    /// `X-GM-LABELS` (Gmail).
    case gmailLabels
}
