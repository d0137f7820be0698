import EventModel

/// The accounts view: every account added and not removed, by name.
public final class AccountsProjector: Projector {
    public static let name = ViewName.accounts
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    public static let schemaVersion: UInt32 = 2
    static let listTable = Table<AccountRecord>(.accounts, "list")

    let list: ViewTable<AccountRecord>

    public init(context: FoldContext) {
        list = context.table(Self.listTable)
    }


    public func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
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
