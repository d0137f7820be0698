/// A message was seen in a folder (synced or imported). One event per copy; the raw bytes are in the blob store.
public struct EmailReceived: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The email's id: stable for this copy (account, folder, location).
    public var emailID: String
    /// The folder it is in.
    public var folder: String
    /// IMAP UID.
    public var uid: UInt32?
    /// IMAP UIDVALIDITY of `uid`.
    public var uidValidity: UInt32?
    /// Where an import found it (maildir file name, mbox byte offset).
    public var sourceLocation: String?
    /// Message-ID without angle brackets.
    public var messageID: String?
    /// In-Reply-To ids.
    public var inReplyTo: [String]
    /// References ids, oldest first.
    public var references: [String]
    /// X-GM-THRID when the server gives it.
    public var gmailThreadID: UInt64?
    /// Decoded subject (empty when missing).
    public var subject: String
    /// From.
    public var from: [EmailAddress]
    /// To.
    public var to: [EmailAddress]
    /// Cc.
    public var cc: [EmailAddress]
    /// Bcc.
    public var bcc: [EmailAddress]
    /// Reply-To.
    public var replyTo: [EmailAddress]
    /// The message date.
    public var date: Timestamp
    /// Where `date` came from: header, received, fallback or none.
    public var dateSource: DateSource
    /// Flags at the time (`\Seen`, `\Flagged`, keywords).
    public var flags: [String]
    /// The first ~100 characters of the message's own text.
    public var snippet: String
    /// Attachments and inline parts.
    public var attachments: [AttachmentInfo]
    /// Raw message size in bytes.
    public var size: UInt64
    /// SHA-256 of the raw bytes: the key in the blob store.
    public var blob: BlobHash
    /// List-Id.
    public var listID: String?
    /// What the parser had to work around in this message.
    public var warnings: [String]

    /// Creates the payload.
    package init(emailID: String, folder: String, uid: UInt32? = nil, uidValidity: UInt32? = nil, sourceLocation: String? = nil, messageID: String? = nil, inReplyTo: [String] = [], references: [String] = [], gmailThreadID: UInt64? = nil, subject: String, from: [EmailAddress] = [], to: [EmailAddress] = [], cc: [EmailAddress] = [], bcc: [EmailAddress] = [], replyTo: [EmailAddress] = [], date: Timestamp, dateSource: DateSource, flags: [String] = [], snippet: String = "", attachments: [AttachmentInfo] = [], size: UInt64, blob: BlobHash, listID: String? = nil, warnings: [String] = []) {
        self.emailID = emailID
        self.folder = folder
        self.uid = uid
        self.uidValidity = uidValidity
        self.sourceLocation = sourceLocation
        self.messageID = messageID
        self.inReplyTo = inReplyTo
        self.references = references
        self.gmailThreadID = gmailThreadID
        self.subject = subject
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.replyTo = replyTo
        self.date = date
        self.dateSource = dateSource
        self.flags = flags
        self.snippet = snippet
        self.attachments = attachments
        self.size = size
        self.blob = blob
        self.listID = listID
        self.warnings = warnings
    }

    package func encode(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(folder)
        w.write(uid)
        w.write(uidValidity)
        w.write(sourceLocation)
        w.write(messageID)
        w.write(inReplyTo)
        w.write(references)
        w.write(gmailThreadID)
        w.write(subject)
        w.write(from)
        w.write(to)
        w.write(cc)
        w.write(bcc)
        w.write(replyTo)
        w.write(date)
        w.write(dateSource)
        w.write(flags)
        w.write(snippet)
        w.write(attachments)
        w.write(size)
        w.write(blob)
        w.write(listID)
        w.write(warnings)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
        folder = try r.read()
        uid = try r.read()
        uidValidity = try r.read()
        sourceLocation = try r.read()
        messageID = try r.read()
        inReplyTo = try r.read()
        references = try r.read()
        gmailThreadID = try r.read()
        subject = try r.read()
        from = try r.read()
        to = try r.read()
        cc = try r.read()
        bcc = try r.read()
        replyTo = try r.read()
        date = try r.read()
        dateSource = try r.read()
        flags = try r.read()
        snippet = try r.read()
        attachments = try r.read()
        size = try r.read()
        blob = try r.read()
        listID = try r.read()
        warnings = try r.read()
    }
}
