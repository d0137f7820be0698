import EventModel

/// The accounts view: every account added and not removed, by name.
package final class AccountsProjector: Projector {
    package static let name = ViewName.accounts
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    package static let schemaVersion: UInt32 = 2
    static let listTable = Table<AccountRecord>(.accounts, "list")

    let list: ViewTable<AccountRecord>

    package init(context: FoldContext) {
        list = context.table(Self.listTable)
    }


    package func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        switch decoded {
        case .accountAdded(let p):
            list.set(Key(p.name).bytes, AccountRecord(settings: p, sequence: event.envelope.sequence))
        case .accountRemoved(let p):
            list.set(Key(p.name).bytes, nil)
        default:
            break
        }
    }
}
