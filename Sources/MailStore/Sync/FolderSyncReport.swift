import EventModel

/// What one folder's sync did, or (``removed``) that the folder is gone from the server.
public struct FolderSyncReport: Sendable, Equatable, Encodable {
    /// The folder path.
    public var folder: String
    /// Its role.
    public var role: String
    /// New server copies recorded (`EmailReceived`).
    public var received = 0
    /// Flag changes recorded (`FlagsChanged`).
    public var flagsChanged = 0
    /// Copies gone from the server (`EmailExpunged`); for a removed folder, every copy it held.
    public var expunged = 0
    /// Gmail: copies gone from this label folder (archived, or its label removed, here or by another client) that the
    /// server's All Mail still holds: recorded there (their `EmailReceived` again, in All Mail), not expunged.
    public var keptInAllMail = 0
    /// Copies matched again by Message-ID and size after a UIDVALIDITY change.
    public var rematched = 0
    /// Whether the server's UIDVALIDITY changed.
    public var uidValidityChanged = false
    /// True when it changed again within a day of the last change (the server changes it at every session, a server bug),
    /// the first time this process saw that for the folder: say it once (a watch would at every poll).
    public var uidValidityFlapping = false
    /// Events appended for this folder (including checkpoints). 0 for a folder gone from the LIST: its `EmailExpunged`
    /// and `FolderRemoved` are counted in the account's `folderEvents` (``SyncReport/folderEvents``), as before; those of
    /// a folder still listed whose mailbox the server says does not exist (``SyncEngine/isFolderGone(_:)``) count here.
    public var events = 0
    /// True when the folder is gone from the server (deleted or renamed by another client; or still listed, its mailbox
    /// deleted, as Dovecot lists a deleted parent of other folders): its copies were expunged (``expunged``) and
    /// `FolderRemoved` recorded. Such a folder was not synced.
    public var removed = false
    /// UIDs of messages the server says are larger than a message may be (64 MiB, the IMAP literal bound): not
    /// fetched, named in a warning at every sync while they are there, so the rest of the account still syncs.
    public var skippedTooLarge: [UInt32] = []
    /// UIDs of messages the server failed to deliver whole (a literal shorter than it stated, then silence or an error),
    /// each alone twice: not fetched while the folder's UIDVALIDITY holds (``FolderSyncState/unfetchable``), named in a
    /// warning at every sync while they are there; the other messages of their batch are stored.
    public var skippedUnfetchable: [UInt32] = []
    /// UIDs given up as unfetchable before that this sync tried again (``SyncOptions/retryUnfetchable``, or their
    /// scheduled retry was due: ``UnfetchableMessage/retryAt``): those not in ``skippedUnfetchable`` now were fetched.
    public var retriedUnfetchable: [UInt32] = []

    public init(folder: String, role: String) {
        self.folder = folder
        self.role = role
    }

    /// True when nothing changed on the server (a removed folder is a change).
    public var unchanged: Bool { events == 0 && !removed }
}
