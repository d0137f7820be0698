import EventModel

/// The dedup view: Message-ID -> the emails and folders carrying it (so the same message in Inbox and
/// All Mail counts once), and the set of emails a notification was delivered for, evicted first in
/// first out beyond `notificationCapacity` entries.
package final class DedupProjector: Projector {
    package static let name = ViewName.dedup
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    /// 3: a copy seen again in another folder (a Gmail message kept in All Mail when it left its label) is listed there.
    package static let schemaVersion: UInt32 = 3
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.emailReceived, .emailExpunged, .notificationDelivered])
    static let messagesTable = Table<[DedupCopy]>(.dedup, "messages")
    static let emailsTable = Table<String>(.dedup, "emails")
    static let notifiedTable = Table<UInt64>(.dedup, "notified")
    static let fifoTable = Table<String>(.dedup, "fifo")
    static let metaTable = Table<UInt64>(.dedup, "meta")

    /// The most delivered notifications remembered (the notifications spec's 10,000).
    package static let notificationCapacity = 10_000

    let messages: ViewTable<[DedupCopy]>
    let emails: ViewTable<String>
    let notified: ViewTable<UInt64>
    let fifo: ViewTable<String>
    let meta: ViewTable<UInt64>

    package init(context: FoldContext) {
        messages = context.table(Self.messagesTable)
        emails = context.table(Self.emailsTable)
        notified = context.table(Self.notifiedTable)
        fifo = context.table(Self.fifoTable)
        meta = context.table(Self.metaTable)
    }


    /// The key of a message's copies.
    package static func messageKey(account: String, messageID: String) -> [UInt8] { Key(account, messageID).bytes }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        switch decoded {
        case .emailReceived(let p):
            guard let raw = p.messageID, !raw.isEmpty else { return }
            let mid = ViewBounds.id(raw)
            let k = DedupProjector.messageKey(account: account, messageID: mid)
            var copies = try messages.get(k) ?? []
            if let i = copies.firstIndex(where: { $0.emailID == p.emailID }) {
                // The same copy seen again, in another folder (kept in Gmail's All Mail when it left its label).
                guard copies[i].folder != p.folder else { return }
                copies[i].folder = p.folder
                messages.set(k, copies)
                return
            }
            if copies.count >= ViewBounds.maxCopiesListed { return }
            copies.append(DedupCopy(emailID: p.emailID, folder: p.folder))
            messages.set(k, copies)
            emails.set(Key(p.emailID).bytes, mid)
        case .emailExpunged(let p):
            guard let mid = try emails.get(Key(p.emailID).bytes) else { return }
            let k = DedupProjector.messageKey(account: account, messageID: mid)
            let copies = (try messages.get(k) ?? []).filter { $0.emailID != p.emailID }
            messages.set(k, copies.isEmpty ? nil : copies)
            emails.set(Key(p.emailID).bytes, nil)
        case .notificationDelivered(let p):
            let nk = Key(p.emailID).bytes
            if try notified.get(nk) != nil { return }
            let headKey = Key("head").bytes, tailKey = Key("tail").bytes
            let head = try meta.get(headKey) ?? 0, tail = try meta.get(tailKey) ?? 0
            var fk = Key(); fk.uint64(head)
            fifo.set(fk.bytes, p.emailID)
            notified.set(nk, head)
            var newTail = tail
            if head + 1 - tail > UInt64(DedupProjector.notificationCapacity) {
                var ok = Key(); ok.uint64(tail)
                if let old = try fifo.get(ok.bytes) { notified.set(Key(old).bytes, nil) }
                fifo.set(ok.bytes, nil)
                newTail = tail + 1
            }
            meta.set(headKey, head + 1)
            meta.set(tailKey, newTail)
        default:
            break
        }
    }
}
