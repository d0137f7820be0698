import EventModel

/// The drafts view: every draft not deleted or sent, at its latest version (each `DraftSaved` stays in the
/// log, so every version survives a kill), listed per account; and the drafts' copies in the server's Drafts
/// folder (`DraftCopyChanged`), kept until each is deleted there, with the server copies of ours that sync
/// brought back (so the Drafts badge counts a draft once).
package final class DraftsProjector: Projector {
    package static let name = ViewName.drafts
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`). 3: server copies
    /// (`server`, `own`, `synced` tables).
    package static let schemaVersion: UInt32 = 3
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.draftSaved, .draftDeleted, .draftCopyChanged, .emailReceived, .emailExpunged])
    static let itemsTable = Table<DraftRecord>(.drafts, "items")
    static let indexTable = Table<Present>(.drafts, "index")
    static let serverTable = Table<DraftServerState>(.drafts, "server")
    static let ownTable = Table<String>(.drafts, "own")
    static let syncedTable = Table<String>(.drafts, "synced")

    let items: ViewTable<DraftRecord>
    /// Key(account, draft id) -> present.
    let index: ViewTable<Present>
    /// Key(account, draft id) -> the draft's server copies and upload state.
    let server: ViewTable<DraftServerState>
    /// Key(account, Message-ID) -> draft id: the Message-IDs of our drafts' server copies.
    let own: ViewTable<String>
    /// Key(account, email id) -> folder: the copies sync recorded of our drafts' server copies, until expunged.
    let synced: ViewTable<String>

    package init(context: FoldContext) {
        items = context.table(Self.itemsTable)
        index = context.table(Self.indexTable)
        server = context.table(Self.serverTable)
        own = context.table(Self.ownTable)
        synced = context.table(Self.syncedTable)
    }


    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        switch decoded {
        case .draftSaved(let p):
            items.set(Key(p.draftID).bytes, DraftRecord(account: account, latest: p, savedAt: event.pointee.envelope.occurredAt))
            index.set(Key(account, p.draftID).bytes, Present())
        case .draftDeleted(let p):
            items.set(Key(p.draftID).bytes, nil)
            index.set(Key(account, p.draftID).bytes, nil)
            if let s = try server.get(Key(account, p.draftID).bytes), s.copies.isEmpty { server.set(Key(account, p.draftID).bytes, nil) }
        case .draftCopyChanged(let p):
            try copyChanged(p, account: account)
        case .emailReceived(let p):
            if try own.get(Key(account, ViewBounds.id(p.messageKey)).bytes) != nil {
                synced.set(Key(account, p.emailID).bytes, ViewBounds.text(p.folder))
            }
        case .emailExpunged(let p):
            synced.set(Key(account, p.emailID).bytes, nil)
        default:
            break
        }
    }

    private func copyChanged(_ p: DraftCopyChanged, account: String) throws {
        let key = Key(account, p.draftID).bytes
        var s = try server.get(key) ?? DraftServerState(account: account, draftID: ViewBounds.id(p.draftID))
        let messageID = ViewBounds.id(p.messageID)
        let copy = DraftServerState.Copy(version: p.draftVersion, folder: ViewBounds.text(p.folder), messageID: messageID,
                                         uid: p.uid, uidValidity: p.uidValidity, stored: p.change == .stored)
        switch p.change {
        case .appending, .stored:
            if !messageID.isEmpty { own.set(Key(account, messageID).bytes, ViewBounds.id(p.draftID)) }
            if let i = s.copies.firstIndex(where: { $0.messageID == messageID }) {
                if p.change == .stored { s.copies[i] = copy }
            } else {
                s.copies.append(copy)
                if s.copies.count > DraftServerState.maxCopies { s.copies.removeFirst(s.copies.count - DraftServerState.maxCopies) }
            }
            if p.change == .stored {
                s.attempts = 0
                s.retryAt = nil
                s.problem = ""
                s.localOnlyVersion = 0
            }
        case .removed:
            s.copies.removeAll { $0.messageID == messageID }
            s.attempts = 0
            s.retryAt = nil
            s.problem = ""
        case .failed:
            s.attempts = p.attempt
            s.retryAt = p.retryAt
            s.problem = ViewBounds.text(p.reason)
        case .localOnly:
            s.localOnlyVersion = p.draftVersion
            s.problem = ViewBounds.text(p.reason)
        }
        let gone = try items.get(Key(p.draftID).bytes) == nil
        server.set(key, gone && s.copies.isEmpty ? nil : s)
    }
}
