/// The notification decision for one new email, made once when the sync that brought it ended, with the
/// sync's time (never the wall clock at fold time) so a replay shows exactly the same decision.
public struct NotificationDecided: PayloadCodable {
    /// The schema version this build writes.
    ///
    /// 2: `messageKey` (version 1 reads with "": unknown).
    public static let schemaVersion: UInt16 = 2

    /// The email.
    public var emailID: String
    /// Its thread (the notification's group).
    public var threadID: String
    /// Posted, badge-only or suppressed.
    public var outcome: NotificationOutcome
    /// Why (`vip`, `passed`, `first-sync`, `account-disabled`, `junk`, `not-in-inbox`, `own-mail`, `active-folder`,
    /// `category-off`, `quiet-hours`, `muted`, `too-old`, `flood-cap`, `thread-cap`).
    public var reason: String
    /// The time of the sync that brought the email, used for recency and quiet hours.
    public var syncTime: Timestamp
    /// The sender's name, else address.
    public var title: String
    /// The subject.
    public var subtitle: String
    /// The first 100 characters of the snippet.
    public var body: String
    /// The sender's address (user info `fromAddress`).
    public var fromAddress: String
    /// The message the email is a copy of (its Message-ID, or `<emailID>` without one; the threads view's
    /// message key), so a posted message is never posted again from another copy, even after the copy posted
    /// is gone (moved away and back); empty when unknown (events of schema version 1).
    public var messageKey: String

    /// Creates the payload.
    public init(emailID: String, threadID: String, outcome: NotificationOutcome, reason: String, syncTime: Timestamp,
                title: String, subtitle: String, body: String, fromAddress: String, messageKey: String = "") {
        self.emailID = emailID
        self.threadID = threadID
        self.outcome = outcome
        self.reason = reason
        self.syncTime = syncTime
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.fromAddress = fromAddress
        self.messageKey = messageKey
    }

    package func encode(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(threadID)
        w.write(outcome)
        w.write(reason)
        w.write(syncTime)
        w.write(title)
        w.write(subtitle)
        w.write(body)
        w.write(fromAddress)
        w.write(messageKey)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
        threadID = try r.read()
        outcome = try r.read()
        reason = try r.read()
        syncTime = try r.read()
        title = try r.read()
        subtitle = try r.read()
        body = try r.read()
        fromAddress = try r.read()
        // Version 1 events were written before the message was recorded: upcast with it unknown.
        messageKey = if version >= 2 { try r.read() } else { "" }
    }
}
