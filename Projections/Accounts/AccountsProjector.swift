import EventModel

/// The accounts view: every account added and not removed, by name.
public final class AccountsProjector: Projector {
    public static let name = "accounts"
    public static let schemaVersion: UInt32 = 1
    public static let tables = ["accounts.list"]

    let list: ViewTable<AccountRecord>

    public init(store: KeyValueStore) {
        list = ViewTable("accounts.list", store: store)
    }

    public func discard() { list.discard() }
    public func flush() throws { try list.flush() }

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
