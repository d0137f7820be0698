/// A version of a draft. Every save is kept.
public struct DraftSaved: PayloadCodable {
    /// The schema version this build writes.
    /// Version 2 (2026-12-07) adds `attachmentCharsets` (each attachment's `charset`); version 1 reads with none.
    public static let schemaVersion: UInt16 = 2

    /// The draft.
    public var draftID: String
    /// 1 for the first save, then increasing.
    public var draftVersion: UInt32
    /// To.
    public var to: [EmailAddress]
    /// Cc.
    public var cc: [EmailAddress]
    /// Bcc.
    public var bcc: [EmailAddress]
    /// Subject.
    public var subject: String
    /// Plain-text body.
    public var body: String
    /// Attachments (content in the blob store). Their `charset`s are written apart, after the other fields
    /// (`attachmentCharsets`, schema 2).
    public var attachments: [DraftAttachment]
    /// Message-ID replied to.
    public var inReplyTo: String?
    /// References for a reply.
    public var references: [String]
    /// The email replied to.
    public var replyToEmailID: String?
    /// The email forwarded.
    public var forwardOfEmailID: String?

    /// Creates the payload.
    package init(draftID: String, draftVersion: UInt32, to: [EmailAddress] = [], cc: [EmailAddress] = [], bcc: [EmailAddress] = [], subject: String = "", body: String = "", attachments: [DraftAttachment] = [], inReplyTo: String? = nil, references: [String] = [], replyToEmailID: String? = nil, forwardOfEmailID: String? = nil) {
        self.draftID = draftID
        self.draftVersion = draftVersion
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.body = body
        self.attachments = attachments
        self.inReplyTo = inReplyTo
        self.references = references
        self.replyToEmailID = replyToEmailID
        self.forwardOfEmailID = forwardOfEmailID
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(draftVersion)
        w.write(to)
        w.write(cc)
        w.write(bcc)
        w.write(subject)
        w.write(body)
        w.write(attachments)
        w.write(inReplyTo)
        w.write(references)
        w.write(replyToEmailID)
        w.write(forwardOfEmailID)
        w.write(attachments.map(\.charset))
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        draftVersion = try r.read()
        to = try r.read()
        cc = try r.read()
        bcc = try r.read()
        subject = try r.read()
        body = try r.read()
        attachments = try r.read()
        inReplyTo = try r.read()
        references = try r.read()
        replyToEmailID = try r.read()
        forwardOfEmailID = try r.read()
        if version >= 2 {
            // One an attachment, in their order. A list of another length (no build writes one) is taken as far as
            // both go: a draft is never refused for its charsets, which the composer checks again before sending.
            let charsets: [String?] = try r.read()
            for (index, charset) in zip(attachments.indices, charsets) { attachments[index].charset = charset }
        }
    }
}
