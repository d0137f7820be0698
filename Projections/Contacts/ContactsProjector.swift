import EventModel

/// The contacts view for recipient autocomplete: every From, To and Cc address of an account's mail with
/// its name, frequency, recency and whether they wrote, and a prefix index over the address, its local part
/// and each word of the name. Never reads any system address book.
public final class ContactsProjector: Projector {
    public static let name = ViewName.contacts
    /// 2: each prefix entry carries the contact's rank.
    /// 3: bounded keys and values (`Key`, `ViewBounds`).
    public static let schemaVersion: UInt32 = 3
    static let peopleTable = Table<Contact>(.contacts, "people")
    static let prefixTable = Table<ContactRank>(.contacts, "prefix")

    /// Key(account, lowercased address) -> contact.
    let people: ViewTable<Contact>
    /// Key(account, token) + lowercased address -> the contact's rank.
    let prefix: ViewTable<ContactRank>

    public init(context: FoldContext) {
        people = context.table(Self.peopleTable)
        prefix = context.table(Self.prefixTable)
    }


    /// The tokens a contact is found by: the address, its local part, each word of the name (lowercased).
    /// The most words of a display name indexed for autocomplete.
    public static let maxNameWords = 16

    public static func tokens(name: String?, address: String) -> Set<String> {
        let a = address.lowercased()
        var out: Set<String> = [a]
        if let at = a.firstIndex(of: "@") { out.insert(String(a[..<at])) }
        // At most `maxNameWords` words of a name (a name is text from mail: it may be a novel).
        for word in (name ?? "").lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).prefix(maxNameWords) {
            out.insert(String(word))
        }
        return out
    }

    /// The index key of a token for an address.
    public static func prefixKey(account: String, token: String, address: String) -> [UInt8] {
        Key(account, token, address).bytes
    }

    public func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        guard case .emailReceived(let p) = decoded else { return }
        let account = event.envelope.account
        let senders = Set(p.from.map { $0.email.lowercased() })
        var seen = Set<String>()
        for a in p.from + p.to + p.cc where !a.email.isEmpty && a.email.contains("@") {
            let address = a.email.lowercased()
            guard seen.insert(address).inserted else { continue }
            try people.modify(Key(account, address).bytes) { c in
                var contact = c ?? Contact(name: nil, address: ViewBounds.text(a.email), count: 0, sent: 0, lastSeen: p.date)
                let oldTokens = ContactsProjector.tokens(name: contact.name, address: address)
                if let name = a.name, !name.isEmpty { contact.name = ViewBounds.text(name) }
                contact.count += 1
                if senders.contains(address) { contact.sent += 1 }
                if p.date > contact.lastSeen { contact.lastSeen = p.date }
                let tokens = ContactsProjector.tokens(name: contact.name, address: address)
                for t in oldTokens.subtracting(tokens) {
                    prefix.set(ContactsProjector.prefixKey(account: account, token: t, address: address), nil)
                }
                for t in tokens {
                    prefix.set(ContactsProjector.prefixKey(account: account, token: t, address: address), ContactRank(contact))
                }
                c = contact
            }
        }
    }
}
