import EventModel

/// The drafts view: every draft not deleted or sent, at its latest version (each `DraftSaved` stays in the
/// log, so every version survives a kill), listed per account.
public final class DraftsProjector: Projector {
    public static let name = "drafts"
    public static let schemaVersion: UInt32 = 1
    public static let tables = ["drafts.items", "drafts.index"]

    let items: ViewTable<DraftRecord>
    /// Key(account, draft id) -> present.
    let index: ViewTable<Present>

    public init(store: KeyValueStore) {
        items = ViewTable("drafts.items", store: store)
        index = ViewTable("drafts.index", store: store)
    }

    public func discard() { items.discard(); index.discard() }
    public func flush() throws { try items.flush(); try index.flush() }

    public func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        let account = event.envelope.account
        switch decoded {
        case .draftSaved(let p):
            items.set(Key(p.draftID).bytes, DraftRecord(account: account, latest: p, savedAt: event.envelope.occurredAt))
            index.set(Key(account, p.draftID).bytes, Present())
        case .draftDeleted(let p):
            items.set(Key(p.draftID).bytes, nil)
            index.set(Key(account, p.draftID).bytes, nil)
        default:
            break
        }
    }
}
