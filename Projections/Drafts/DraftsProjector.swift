import EventModel

/// The drafts view: every draft not deleted or sent, at its latest version (each `DraftSaved` stays in the
/// log, so every version survives a kill), listed per account.
package final class DraftsProjector: Projector {
    package static let name = ViewName.drafts
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    package static let schemaVersion: UInt32 = 2
    static let itemsTable = Table<DraftRecord>(.drafts, "items")
    static let indexTable = Table<Present>(.drafts, "index")

    let items: ViewTable<DraftRecord>
    /// Key(account, draft id) -> present.
    let index: ViewTable<Present>

    package init(context: FoldContext) {
        items = context.table(Self.itemsTable)
        index = context.table(Self.indexTable)
    }


    package func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
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
