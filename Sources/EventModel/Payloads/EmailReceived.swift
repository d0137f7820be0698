/// A message was seen in a folder (synced or imported). One event per copy; the raw bytes are in the blob store.
///
/// Its fields are held in one immutable object (`Storage`), so a copy of the payload (binding it out of a
/// `DomainEvent`, which copies it from the enum's storage, or passing it on) retains that object once instead of
/// each of its ~15 strings and arrays, and releases it once; setting a field makes a new object with the change
/// (payloads are built whole and read, rarely changed).
public struct EmailReceived: PayloadCodable {
    /// The schema version this build writes.
    ///
    /// 2: `receivedAt`, the server's arrival time (version 1 reads with nil). 3: `gmailMessageID`, Gmail's X-GM-MSGID
    /// (versions 1 and 2 read with nil).
    public static let schemaVersion: UInt16 = 3

    /// The stored fields, in the order they are written (and their JSON object's keys: `Fields`' own encoding).
    @usableFromInline package struct Fields: Equatable, Encodable, Sendable {
        @usableFromInline package var emailID: String
        @usableFromInline package var folder: String
        @usableFromInline package var uid: UInt32?
        @usableFromInline package var uidValidity: UInt32?
        @usableFromInline package var sourceLocation: String?
        @usableFromInline package var messageID: String?
        @usableFromInline package var inReplyTo: [String]
        @usableFromInline package var references: [String]
        @usableFromInline package var gmailThreadID: UInt64?
        @usableFromInline package var subject: String
        @usableFromInline package var from: [EmailAddress]
        @usableFromInline package var to: [EmailAddress]
        @usableFromInline package var cc: [EmailAddress]
        @usableFromInline package var bcc: [EmailAddress]
        @usableFromInline package var replyTo: [EmailAddress]
        @usableFromInline package var date: Timestamp
        @usableFromInline package var dateSource: DateSource
        @usableFromInline package var flags: [String]
        @usableFromInline package var snippet: String
        @usableFromInline package var attachments: [AttachmentInfo]
        @usableFromInline package var size: UInt64
        @usableFromInline package var blob: BlobHash
        @usableFromInline package var listID: String?
        @usableFromInline package var warnings: [String]
        @usableFromInline package var receivedAt: Timestamp?
        @usableFromInline package var gmailMessageID: UInt64?
    }

    /// The fields' one immutable holder.
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let fields: Fields
        @usableFromInline init(_ fields: Fields) { self.fields = fields }
    }

    /// The fields, shared by every copy of this payload until one of them sets a field.
    @usableFromInline var storage: Storage

    /// Changes fields: a new `Storage` with the change (copies of the payload keep the one they had). Setting
    /// several fields through one call makes one object, where each setter makes its own.
    @inlinable package mutating func update(_ change: (inout Fields) -> Void) {
        var f = storage.fields
        change(&f)
        storage = Storage(f)
    }

    /// The email's id: stable for this copy (account, folder, location).
    @inlinable public var emailID: String {
        get { storage.fields.emailID }
        set { update { $0.emailID = newValue } }
    }
    /// The folder it is in.
    @inlinable public var folder: String {
        get { storage.fields.folder }
        set { update { $0.folder = newValue } }
    }
    /// IMAP UID.
    @inlinable public var uid: UInt32? {
        get { storage.fields.uid }
        set { update { $0.uid = newValue } }
    }
    /// IMAP UIDVALIDITY of `uid`.
    @inlinable public var uidValidity: UInt32? {
        get { storage.fields.uidValidity }
        set { update { $0.uidValidity = newValue } }
    }
    /// Where an import found it (maildir file name, mbox byte offset).
    @inlinable public var sourceLocation: String? {
        get { storage.fields.sourceLocation }
        set { update { $0.sourceLocation = newValue } }
    }
    /// Message-ID without angle brackets.
    @inlinable public var messageID: String? {
        get { storage.fields.messageID }
        set { update { $0.messageID = newValue } }
    }
    /// In-Reply-To ids.
    @inlinable public var inReplyTo: [String] {
        get { storage.fields.inReplyTo }
        set { update { $0.inReplyTo = newValue } }
    }
    /// References ids, oldest first.
    @inlinable public var references: [String] {
        get { storage.fields.references }
        set { update { $0.references = newValue } }
    }
    /// X-GM-THRID when the server gives it.
    @inlinable public var gmailThreadID: UInt64? {
        get { storage.fields.gmailThreadID }
        set { update { $0.gmailThreadID = newValue } }
    }
    /// Decoded subject (empty when missing).
    @inlinable public var subject: String {
        get { storage.fields.subject }
        set { update { $0.subject = newValue } }
    }
    /// From.
    @inlinable public var from: [EmailAddress] {
        get { storage.fields.from }
        set { update { $0.from = newValue } }
    }
    /// To.
    @inlinable public var to: [EmailAddress] {
        get { storage.fields.to }
        set { update { $0.to = newValue } }
    }
    /// Cc.
    @inlinable public var cc: [EmailAddress] {
        get { storage.fields.cc }
        set { update { $0.cc = newValue } }
    }
    /// Bcc.
    @inlinable public var bcc: [EmailAddress] {
        get { storage.fields.bcc }
        set { update { $0.bcc = newValue } }
    }
    /// Reply-To.
    @inlinable public var replyTo: [EmailAddress] {
        get { storage.fields.replyTo }
        set { update { $0.replyTo = newValue } }
    }
    /// The message date.
    @inlinable public var date: Timestamp {
        get { storage.fields.date }
        set { update { $0.date = newValue } }
    }
    /// Where `date` came from: header, received, fallback or none.
    @inlinable public var dateSource: DateSource {
        get { storage.fields.dateSource }
        set { update { $0.dateSource = newValue } }
    }
    /// Flags at the time (`\Seen`, `\Flagged`, keywords).
    @inlinable public var flags: [String] {
        get { storage.fields.flags }
        set { update { $0.flags = newValue } }
    }
    /// The first ~100 characters of the message's own text.
    @inlinable public var snippet: String {
        get { storage.fields.snippet }
        set { update { $0.snippet = newValue } }
    }
    /// Attachments and inline parts.
    @inlinable public var attachments: [AttachmentInfo] {
        get { storage.fields.attachments }
        set { update { $0.attachments = newValue } }
    }
    /// Raw message size in bytes.
    @inlinable public var size: UInt64 {
        get { storage.fields.size }
        set { update { $0.size = newValue } }
    }
    /// SHA-256 of the raw bytes: the key in the blob store.
    @inlinable public var blob: BlobHash {
        get { storage.fields.blob }
        set { update { $0.blob = newValue } }
    }
    /// List-Id.
    @inlinable public var listID: String? {
        get { storage.fields.listID }
        set { update { $0.listID = newValue } }
    }
    /// What the parser had to work around in this message.
    @inlinable public var warnings: [String] {
        get { storage.fields.warnings }
        set { update { $0.warnings = newValue } }
    }
    /// When the message arrived at the server (IMAP `INTERNALDATE`), as the server said it; nil when not known
    /// (imports, and events of schema version 1, written before it was recorded). Unlike `date`, a sender cannot
    /// set it: notifications order and age mail by it.
    @inlinable public var receivedAt: Timestamp? {
        get { storage.fields.receivedAt }
        set { update { $0.receivedAt = newValue } }
    }
    /// Gmail's id of the message (`X-GM-MSGID`), the same for its copy in every folder (label), when the server gives
    /// it; nil for other servers, imports, and events of schema versions 1 and 2 (written before it was recorded).
    /// What a sync finds a message stored already by, to record another copy of it without fetching its body.
    @inlinable public var gmailMessageID: UInt64? {
        get { storage.fields.gmailMessageID }
        set { update { $0.gmailMessageID = newValue } }
    }

    /// Creates the payload.
    package init(emailID: String, folder: String, uid: UInt32? = nil, uidValidity: UInt32? = nil, sourceLocation: String? = nil, messageID: String? = nil, inReplyTo: [String] = [], references: [String] = [], gmailThreadID: UInt64? = nil, subject: String, from: [EmailAddress] = [], to: [EmailAddress] = [], cc: [EmailAddress] = [], bcc: [EmailAddress] = [], replyTo: [EmailAddress] = [], date: Timestamp, dateSource: DateSource, flags: [String] = [], snippet: String = "", attachments: [AttachmentInfo] = [], size: UInt64, blob: BlobHash, listID: String? = nil, warnings: [String] = [], receivedAt: Timestamp? = nil, gmailMessageID: UInt64? = nil) {
        storage = Storage(Fields(emailID: emailID, folder: folder, uid: uid, uidValidity: uidValidity, sourceLocation: sourceLocation, messageID: messageID, inReplyTo: inReplyTo, references: references, gmailThreadID: gmailThreadID, subject: subject, from: from, to: to, cc: cc, bcc: bcc, replyTo: replyTo, date: date, dateSource: dateSource, flags: flags, snippet: snippet, attachments: attachments, size: size, blob: blob, listID: listID, warnings: warnings, receivedAt: receivedAt, gmailMessageID: gmailMessageID))
    }

    /// Equal when every field is.
    public static func == (a: EmailReceived, b: EmailReceived) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    /// Encodes the fields as the payload's JSON object (each field a key, in order).
    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }

    package func encode(to w: inout ByteWriter) {
        // Each field read where the storage holds it, not from a copy of the fields.
        let s = storage
        w.write(s.fields.emailID)
        w.write(s.fields.folder)
        w.write(s.fields.uid)
        w.write(s.fields.uidValidity)
        w.write(s.fields.sourceLocation)
        w.write(s.fields.messageID)
        w.write(s.fields.inReplyTo)
        w.write(s.fields.references)
        w.write(s.fields.gmailThreadID)
        w.write(s.fields.subject)
        w.write(s.fields.from)
        w.write(s.fields.to)
        w.write(s.fields.cc)
        w.write(s.fields.bcc)
        w.write(s.fields.replyTo)
        w.write(s.fields.date)
        w.write(s.fields.dateSource)
        w.write(s.fields.flags)
        w.write(s.fields.snippet)
        w.write(s.fields.attachments)
        w.write(s.fields.size)
        w.write(s.fields.blob)
        w.write(s.fields.listID)
        w.write(s.fields.warnings)
        w.write(s.fields.receivedAt)
        w.write(s.fields.gmailMessageID)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        let emailID: String = try r.read()
        let folder: String = try r.read()
        let uid: UInt32? = try r.read()
        let uidValidity: UInt32? = try r.read()
        let sourceLocation: String? = try r.read()
        let messageID: String? = try r.read()
        let inReplyTo: [String] = try r.read()
        let references: [String] = try r.read()
        let gmailThreadID: UInt64? = try r.read()
        let subject: String = try r.read()
        let from: [EmailAddress] = try r.read()
        let to: [EmailAddress] = try r.read()
        let cc: [EmailAddress] = try r.read()
        let bcc: [EmailAddress] = try r.read()
        let replyTo: [EmailAddress] = try r.read()
        let date: Timestamp = try r.read()
        let dateSource: DateSource = try r.read()
        let flags = try r.readFlagList()
        let snippet: String = try r.read()
        let attachments: [AttachmentInfo] = try r.read()
        let size: UInt64 = try r.read()
        let blob: BlobHash = try r.read()
        let listID: String? = try r.read()
        let warnings: [String] = try r.read()
        // Version 1 events were written before the arrival time was recorded: upcast with it absent.
        let receivedAt: Timestamp? = if version >= 2 { try r.read() } else { nil }
        // Versions 1 and 2 were written before Gmail's message id was recorded: upcast with it absent.
        let gmailMessageID: UInt64? = if version >= 3 { try r.read() } else { nil }
        storage = Storage(Fields(emailID: emailID, folder: folder, uid: uid, uidValidity: uidValidity, sourceLocation: sourceLocation, messageID: messageID, inReplyTo: inReplyTo, references: references, gmailThreadID: gmailThreadID, subject: subject, from: from, to: to, cc: cc, bcc: bcc, replyTo: replyTo, date: date, dateSource: dateSource, flags: flags, snippet: snippet, attachments: attachments, size: size, blob: blob, listID: listID, warnings: warnings, receivedAt: receivedAt, gmailMessageID: gmailMessageID))
    }
}
