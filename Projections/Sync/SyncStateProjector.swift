import EventModel

/// The sync state view: per folder its last checkpoint and the server copies (UID, flags) the log holds,
/// so the sync engine can tell what is new, changed or gone. Only copies with a UID (from IMAP) are kept.
///
/// Copies are keyed by UID, not UIDVALIDITY: after a UIDVALIDITY change the re-match records each copy at its new
/// UID, which may still hold another copy's entry of the old validity (the folder was recreated with its messages
/// in another order). So an email's location counts only while the entry there is still that email's: moving,
/// changing or expunging a copy never touches an entry another email has taken over.
package final class SyncStateProjector: Projector {
    package static let name = ViewName.sync
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    /// 3: a re-match in another UID order keeps every copy (entries taken over by another email are left alone).
    /// 4: `UIDValidityChanged` moves the folder's copies to the new value (a re-match records again only the copies whose
    /// UID or flags changed); a folder's state keeps its unfetchable UIDs.
    /// 5: a folder's state keeps when each unfetchable UID was given up and how many times (the scheduled retry).
    /// 6: each folder's removals (`FolderRemoved`) counted: its generation, which the ids of its mail after a rediscovery
    /// derive from.
    package static let schemaVersion: UInt32 = 6
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.emailReceived, .flagsChanged, .emailExpunged, .folderRemoved, .folderSyncCheckpointed,
                                                          .uidValidityChanged])
    static let foldersTable = Table<FolderSyncState>(.sync, "folders")
    static let copiesTable = Table<SyncedCopy>(.sync, "copies")
    static let emailsTable = Table<CopyLocation>(.sync, "emails")
    static let countsTable = Table<Int>(.sync, "counts")
    static let removalsTable = Table<Int>(.sync, "removals")

    let folders: ViewTable<FolderSyncState>
    /// Key(account, folder) + UID -> copy.
    let copies: ViewTable<SyncedCopy>
    /// Key(emailID) -> its copy's folder and UID.
    let emails: ViewTable<CopyLocation>
    /// Key(account, folder) -> number of copies.
    let counts: ViewTable<Int>
    /// Key(account, folder) -> how many times the folder was recorded removed (its generation; none: 0).
    let removals: ViewTable<Int>

    package init(context: FoldContext) {
        folders = context.table(Self.foldersTable)
        copies = context.table(Self.copiesTable)
        emails = context.table(Self.emailsTable)
        counts = context.table(Self.countsTable)
        removals = context.table(Self.removalsTable)
    }


    /// The key of the copy with `uid` in (account, folder).
    package static func copyKey(account: String, folder: String, uid: UInt32) -> [UInt8] {
        var k = Key(account, folder)
        k.uint64(UInt64(uid))
        return k.bytes
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        switch decoded {
        case .emailReceived(let p):
            guard let uid = p.uid, let validity = p.uidValidity else { return }
            let emailKey = Key(p.emailID).bytes
            // A copy matched again after a UIDVALIDITY change keeps its email id and moves to its new UID.
            if let old = try emails.get(emailKey) { try remove(old, account: account, emailID: p.emailID) }
            let key = SyncStateProjector.copyKey(account: account, folder: p.folder, uid: uid)
            if try copies.get(key) == nil { try count(account, p.folder, by: 1) }
            copies.set(key, SyncedCopy(emailID: p.emailID, uid: uid, uidValidity: validity, flags: p.flags,
                                       messageID: p.messageID, size: p.size, sequence: event.pointee.envelope.sequence))
            emails.set(emailKey, CopyLocation(folder: p.folder, uid: uid))
        case .flagsChanged(let p):
            guard let at = try emails.get(Key(p.emailID).bytes) else { return }
            try copies.modify(SyncStateProjector.copyKey(account: account, folder: at.folder, uid: at.uid)) { copy in
                if copy?.emailID == p.emailID { copy?.flags = p.flags }
            }
        case .emailExpunged(let p):
            let emailKey = Key(p.emailID).bytes
            guard let at = try emails.get(emailKey) else { return }
            try remove(at, account: account, emailID: p.emailID)
            emails.set(emailKey, nil)
        case .folderSyncCheckpointed(let p):
            folders.set(Key(account, p.folder).bytes, FolderSyncState(p, recordedAt: event.pointee.envelope.recordedAt))
        case .folderRemoved(let p):
            folders.set(Key(account, p.folder).bytes, nil)
            // Kept when the folder is gone: a folder that comes back (the same name and UIDVALIDITY, as after a RENAME
            // there and back on Dovecot) gives its mail ids of this generation, not those of the mail recorded gone.
            try removals.modify(Key(account, p.folder).bytes) { v in v = (v ?? 0) &+ 1 }
        case .uidValidityChanged(let p):
            // Every copy of the folder is under the new value from here: the re-match that follows records again each one
            // found at another UID (or with other flags) and expunges each one not found, so one it leaves alone is at
            // the same UID. (Logs written before 2026-12-07 record every copy again or expunge it: the same end.)
            for key in try copies.keys(prefix: Key(account, p.folder).bytes) {
                try copies.modifyIfChanged(key) { copy in
                    guard copy != nil, copy?.uidValidity != p.newValue else { return false }
                    copy?.uidValidity = p.newValue
                    return true
                }
            }
        default:
            break
        }
    }

    /// Removes the entry at `at` if it is still `emailID`'s (not taken over by another email's re-match).
    private func remove(_ at: CopyLocation, account: String, emailID: String) throws {
        let key = SyncStateProjector.copyKey(account: account, folder: at.folder, uid: at.uid)
        guard try copies.get(key)?.emailID == emailID else { return }
        copies.set(key, nil)
        try count(account, at.folder, by: -1)
    }

    private func count(_ account: String, _ folder: String, by delta: Int) throws {
        try counts.modify(Key(account, folder).bytes) { v in
            let n = (v ?? 0) + delta
            v = n == 0 ? nil : n
        }
    }
}
