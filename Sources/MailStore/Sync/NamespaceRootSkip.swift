/// The personal namespace's root named with `sync --folder` and not synced (``SyncEngine/withoutNamespaceRoot(_:prefix:conn:)``):
/// it holds no mail, or it is the Inbox's own mailbox under another name (Dovecot's `Mail` with `inbox = yes`). Said in
/// the sync's summary (a note) and JSON (`namespaceRootNotSynced`), exit 0 as for a folder with nothing to sync; until
/// the sixteenth round the sync said the folder was not found (exit 4), though the server lists it.
public struct NamespaceRootSkip: Sendable, Equatable, Encodable {
    /// The root's path (`Mail`).
    public var folder: String
    /// Whether its STATUS is the Inbox's (UIDVALIDITY, UIDNEXT and message count): its mail is the Inbox's; else it is empty.
    public var sameAsInbox: Bool

    public init(folder: String, sameAsInbox: Bool) {
        self.folder = folder
        self.sameAsInbox = sameAsInbox
    }

    /// What it is and why it is not synced, in a line (the folder's name made safe for a terminal by the caller).
    public func reason(name: String) -> String {
        sameAsInbox
            ? "'\(name)' is the namespace root and the same mailbox as INBOX here: its mail is synced as INBOX (`--folder INBOX`)"
            : "'\(name)' is the namespace root, the container of the other folders, and holds no mail: nothing to sync"
    }
}
