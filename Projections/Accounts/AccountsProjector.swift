import EventModel

/// The accounts view: every account added and not removed, by name; and the discovery cache, by domain
/// (the last network lookup of each domain that found an IMAP server, kept after its account is removed).
package final class AccountsProjector: Projector {
    package static let name = ViewName.accounts
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    /// 3: the discovery cache (`discovered`, by domain).
    package static let schemaVersion: UInt32 = 3
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.accountAdded, .accountRemoved, .accountSettingsDiscovered])
    static let listTable = Table<AccountRecord>(.accounts, "list")
    static let discoveredTable = Table<DiscoveryRecord>(.accounts, "discovered")

    let list: ViewTable<AccountRecord>
    let discovered: ViewTable<DiscoveryRecord>

    package init(context: FoldContext) {
        list = context.table(Self.listTable)
        discovered = context.table(Self.discoveredTable)
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        switch decoded {
        case .accountAdded(let p):
            list.set(Key(p.name).bytes, AccountRecord(settings: p, sequence: event.pointee.envelope.sequence))
        case .accountRemoved(let p):
            list.set(Key(p.name).bytes, nil)
        case .accountSettingsDiscovered(let p):
            // Only a network lookup that found IMAP is worth reusing; the registry is local, a reuse is not news.
            guard p.cachedFrom == nil, p.imapHost != nil, p.imapSource != "registry" else { break }
            discovered.set(Key(p.domain).bytes, DiscoveryRecord(found: p.bounded, sequence: event.pointee.envelope.sequence,
                                                                recordedAt: event.pointee.envelope.recordedAt))
        default:
            break
        }
    }
}
