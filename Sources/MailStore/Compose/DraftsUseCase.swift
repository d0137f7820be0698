import EventLog
import EventModel
import Foundation
import MailParser
import MessageComposer
import Projections
import Views

/// Drafts: every save is a `DraftSaved` with the next version (all versions stay in the log, so a draft
/// survives a kill); replies and forwards get their subject, threading headers and quoted original.
public struct DraftsUseCase {
    public let store: MailStore
    var views: ViewStore { get throws { try store.views() } }

    /// The drafts of `store`.
    public init(store: MailStore) {
        self.store = store
    }

    /// Creates a draft in `account`; returns it with the per-field address problems (saved anyway). A reply goes to
    /// the original's Reply-To (else its From), a reply to all also to its To and Cc, the user's own addresses left
    /// out (the account's, and those with at least half of their mail in a Sent-role folder); a forward carries the original's attachments (those past the draft's bounds are left out, each named in
    /// the problems).
    public func create(account: String, _ input: DraftInput) throws -> (draft: DraftSaved, problems: [String]) {
        try checkInput(input)
        guard let settings = try views.account(named: account) else { throw DraftError.noAccount(account) }
        let id = String(EventID.generate().description.replacingOccurrences(of: "-", with: "").suffix(16))
        var base = DraftSaved(draftID: id, draftVersion: 0, subject: "", body: "")
        var carried = CarriedAttachments()
        var aliasNotes: [String] = []
        var subjectNote: [String] = []
        if let original = input.replyTo ?? input.forward {
            let (parsed, bytes) = try self.original(original)
            let parent = ParentMessage(parsed)
            let reply = input.replyTo != nil
            let subject = reply ? MessageComposer.replySubject(parent.subject ?? "") : MessageComposer.forwardSubject(parent.subject ?? "")
            // Held to the bound a typed subject is (the original's may be 64 KiB): cut at a character's end, said.
            base.subject = Attachment.cut(subject, maxBytes: Self.maxSubjectBytes)
            if base.subject != subject {
                subjectNote = ["the subject was cut to \(Self.maxSubjectBytes) bytes (the original's made it \(subject.utf8.count)): "
                               + "a draft's subject holds at most \(Self.maxSubjectBytes)"]
            }
            if reply {
                let threading = MessageComposer.replyThreading(to: parent)
                base.inReplyTo = threading.inReplyTo
                base.references = threading.references
                var own = Set([settings.settings.email, settings.settings.username].map { MailAddress(name: nil, email: $0).normalizedEmail })
                // The user's other addresses among the parent's (an alias: most of its mail in Sent) are left out as well,
                // each said in the problems, since a Sent folder can hold someone else's mail (a delegate's).
                let named = (parent.from + parent.replyTo + parent.to + parent.cc).map(\.normalizedEmail)
                let aliases = try views.sentAs(account: account, among: named).subtracting(own)
                own.formUnion(aliases)
                let recipients = MessageComposer.replyRecipients(to: parent, all: input.replyAll, own: own)
                let kept = Set((recipients.to + recipients.cc).map(\.normalizedEmail))
                let addressed = Set((parent.to + parent.cc).map(\.normalizedEmail))
                aliasNotes = aliases.intersection(addressed).subtracting(kept).sorted().map {
                    "\($0) left out of the reply: most of its mail is in a Sent folder, so it is taken for one of your addresses"
                }
                base.to = recipients.to.map(MessageIngest.address)
                base.cc = recipients.cc.map(MessageIngest.address)
                base.replyToEmailID = original
            } else {
                base.forwardOfEmailID = original
                carried = try forwardedAttachments(of: parsed, in: bytes)
                base.attachments = carried.attachments
            }
            let quoted = reply ? MessageComposer.quotedBody(of: parent, timeZone: .current)
                               : MessageComposer.forwardedBlock(of: parent, timeZone: .current)
            base.body = DraftsUseCase.fitted((input.body.map { $0 + "\n\n" } ?? "\n\n") + quoted)
        }
        var merged = input
        if merged.body != nil && (input.replyTo ?? input.forward) != nil { merged.body = nil }
        let (draft, problems) = try save(account: account, base: base, merged, carrying: carried.blobs)
        return (draft, subjectNote + carried.problems + aliasNotes + problems)
    }

    /// Saves the next version of a draft with `input`'s changes (its attachments detached by name or position:
    /// `detaching`, which refuses a name several have). The version is written only if the draft's stream
    /// is still as it was read (optimistic concurrency): two processes editing one draft at once each save a version
    /// of their own, in order, neither lost (without the check, eight at once wrote versions 1,2,2,2,3,3,4,4,3). A draft
    /// in the outbox is not edited (`DraftError.inOutbox`): the version queued is the one sent.
    public func edit(_ id: String, _ input: DraftInput) throws -> (draft: DraftSaved, problems: [String]) {
        try checkInput(input)
        let saved = try store.retryingOnConflict(on: .draft(id), attempts: DraftsUseCase.maxSaveAttempts) { expected, views in
            guard let d = try views.draft(id: id) else { throw DraftError.notFound(id) }
            if let state = try views.outboxItem(draftID: id)?.state, state.inOutbox { throw DraftError.inOutbox(id, "\(state)") }
            return try save(account: d.account, base: d.latest, input, expected: expected)
        }
        guard let saved else { throw DraftError.busy(id) }
        return saved
    }

    /// The most times `edit` (or `OutboxUseCase.queue`) reads a draft again after another process wrote to it first.
    public static let maxSaveAttempts = 16

    /// Deletes a draft (`DraftDeleted`; its versions stay in the log). A draft in the outbox (queued, being sent or
    /// failed) is refused (`DraftError.deleteInOutbox`): it is taken back first, so a delete never races its send. The
    /// delete is appended only if the draft's stream is still as read (`expectedVersion`): a `send` that queued it
    /// meanwhile is seen.
    public func delete(_ id: String) throws {
        let deleted = try store.retryingOnConflict(on: .draft(id), attempts: DraftsUseCase.maxSaveAttempts) { expected, views in
            guard let d = try views.draft(id: id) else { throw DraftError.notFound(id) }
            if let state = try views.outboxItem(draftID: id)?.state, state.inOutbox { throw DraftError.deleteInOutbox(id, "\(state)") }
            try store.commit([NewEvent(event: .draftDeleted(DraftDeleted(draftID: id)), account: d.account, stream: .draft(id), actor: .user,
                                       expectedVersion: expected)])
            return true
        }
        guard deleted != nil else { throw DraftError.busy(id) }
    }

    /// What keeps a draft from being sent: invalid addresses (per field), no valid recipient, no body.
    public func problems(_ d: DraftSaved) -> [String] {
        var out: [String] = []
        for (field, list) in [("To", d.to), ("Cc", d.cc), ("Bcc", d.bcc)] {
            for a in list { if let p = AddressList.problem(with: a.email) { out.append("\(field): \(a.email): \(p)") } }
        }
        let valid = (d.to + d.cc + d.bcc).filter { AddressList.problem(with: $0.email) == nil }
        if valid.isEmpty { out.append("add at least one valid recipient (To, Cc or Bcc)") }
        if d.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { out.append("write a body") }
        return out
    }

    private func save(account: String, base: DraftSaved, _ input: DraftInput, expected: ExpectedVersion = .any,
                      carrying carried: [PendingBlob] = []) throws -> (draft: DraftSaved, problems: [String]) {
        var d = base
        d.draftVersion += 1
        var problems: [String] = []
        func parse(_ text: String?, _ field: AddressField, _ current: [EmailAddress]) -> [EmailAddress] {
            guard let text else { return current }
            let list = AddressList(parsing: text, field: field)
            problems += list.invalid.map { "\($0)" }
            return list.addresses.map(MessageIngest.address)
        }
        d.to = parse(input.to, .to, d.to)
        d.cc = parse(input.cc, .cc, d.cc)
        d.bcc = parse(input.bcc, .bcc, d.bcc)
        if let s = input.subject { d.subject = s }
        if let b = input.body { d.body = b }
        d.attachments = try Self.detaching(input, from: d.attachments, problems: &problems)
        var blobs = carried
        var attached = d.attachments.reduce(UInt64(0)) { $0 &+ $1.size }
        try Self.checkDraft(recipients: d.to.count + d.cc.count + d.bcc.count, attachments: d.attachments.count + input.attach.count,
                            attachmentBytes: attached)
        for path in input.attach {
            let data = try Self.attachmentBytes(path, room: Self.maxAttachmentBytes - Int(attached))
            attached += UInt64(data.count)
            let blob = try store.log.prepareBlob(data)
            blobs.append(blob)
            let name = URL(fileURLWithPath: path).lastPathComponent
            let type = DraftsUseCase.attachedType(name, bytes: data)
            d.attachments.append(EventModel.DraftAttachment(filename: name, mimeType: type.mimeType, size: UInt64(data.count),
                                                            blob: blob.hash, charset: type.charset))
        }
        try store.commit([NewEvent(event: .draftSaved(d), account: account, stream: .draft(d.draftID), actor: .user,
                                   expectedVersion: expected)], blobs: blobs)
        return (d, problems)
    }

    /// The original of a reply or forward, parsed, and its stored bytes.
    func original(_ emailID: String) throws -> (ParsedMessage, [UInt8]) {
        guard let e = try store.email(id: emailID), let bytes = try store.log.blob(e.payload.blob) else {
            throw DraftError.originalNotFound(emailID)
        }
        return (MailParser.parse(bytes), bytes)
    }

    /// A MIME type from a file name's extension.
    static func mimeType(_ name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "pdf": "application/pdf"
        case "txt": "text/plain"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "html", "htm": "text/html"
        case "zip": "application/zip"
        case "csv": "text/csv"
        default: "application/octet-stream"
        }
    }
}
