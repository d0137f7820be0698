/// One data item of a `FETCH` response.
package enum FetchAttribute: Hashable, Sendable {
    /// `UID n`.
    case uid(UInt32)
    /// `FLAGS (...)`: flags and keywords as sent.
    case flags([String])
    /// `MODSEQ (n)` (RFC 7162).
    case modSeq(UInt64)
    /// `INTERNALDATE "17-Jul-1996 02:44:25 -0700"`: the text as sent and, when it is a valid
    /// date-time, the instant in seconds since 1970-01-01T00:00:00Z.
    case internalDate(raw: String, epochSeconds: Int64?)
    /// `RFC822.SIZE n`.
    case rfc822Size(UInt64)
    /// `BODY[section]<origin> data`. `BODY.PEEK[...]` requests are answered as `BODY[...]`;
    /// `RFC822`, `RFC822.HEADER` and `RFC822.TEXT` arrive here with sections `""`, `"HEADER"`
    /// and `"TEXT"`. The section is the text between the brackets, e.g.
    /// `HEADER.FIELDS (SUBJECT FROM)`; data is nil when the server sent `NIL`.
    case body(section: String, origin: UInt32?, data: [UInt8]?)
    /// `BINARY[section]<origin> data` (RFC 3516): the decoded content of a part.
    case binary(section: String, origin: UInt32?, data: [UInt8]?)
    /// `BINARY.SIZE[section] n` (RFC 3516).
    case binarySize(section: String, size: UInt64)
    /// `ENVELOPE (...)`.
    case envelope(IMAPEnvelope)
    /// `BODYSTRUCTURE (...)` (extensible true) or `BODY (...)` without a section (false),
    /// kept as its generic value.
    case bodyStructure(IMAPValue, extensible: Bool)
    /// `X-GM-MSGID n`: Gmail's message id.
    case gmailMessageID(UInt64)
    /// `X-GM-THRID n`: Gmail's thread id.
    case gmailThreadID(UInt64)
    /// `X-GM-LABELS (...)`: Gmail labels, modified UTF-7 decoded (system labels such as `\Inbox` as sent).
    case gmailLabels([String])
    /// Any other item (or an ENVELOPE that does not have the envelope shape): its name
    /// uppercased, with section and origin if present, and its value.
    case other(name: String, value: IMAPValue)
}
