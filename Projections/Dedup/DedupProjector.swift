import EventModel

/// The dedup view: Message-ID -> the emails and folders carrying it (so the same message in Inbox and
/// All Mail counts once), and the set of emails a notification was delivered for, evicted first in
/// first out beyond `notificationCapacity` entries.
public final class DedupProjector: Projector {
    public static let name = "dedup"
    public static let schemaVersion: UInt32 = 1
    public static let tables = ["dedup.messages", "dedup.emails", "dedup.notified", "dedup.fifo", "dedup.meta"]

    /// The most delivered notifications remembered (the notifications spec's 10,000).
    public static let notificationCapacity = 10_000

    let messages: ViewTable<[DedupCopy]>
    let emails: ViewTable<String>
    let notified: ViewTable<UInt64>
    let fifo: ViewTable<String>
    let meta: ViewTable<UInt64>

    public init(store: KeyValueStore) {
        messages = ViewTable("dedup.messages", store: store)
        emails = ViewTable("dedup.emails", store: store)
        notified = ViewTable("dedup.notified", store: store)
        fifo = ViewTable("dedup.fifo", store: store)
        meta = ViewTable("dedup.meta", store: store)
    }

    public func discard() { messages.discard(); emails.discard(); notified.discard(); fifo.discard(); meta.discard() }
    public func flush() throws {
        try messages.flush(); try emails.flush(); try notified.flush(); try fifo.flush(); try meta.flush()
    }

    /// The key of a message's copies.
    public static func messageKey(account: String, messageID: String) -> [UInt8] { Key(account, messageID).bytes }

    public func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        let account = event.envelope.account
        switch decoded {
        case .emailReceived(let p):
            guard let mid = p.messageID, !mid.isEmpty else { return }
            let k = DedupProjector.messageKey(account: account, messageID: mid)
            var copies = try messages.get(k) ?? []
            if copies.contains(where: { $0.emailID == p.emailID }) { return }
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
