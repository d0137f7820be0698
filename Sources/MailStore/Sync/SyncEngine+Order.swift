import EventModel
import SyncCore

extension SyncEngine {
    /// The order a full sync takes the folders in: the Inbox first, then the other role folders (``roleOrder``), then
    /// the others in LIST order (`folders`' order). New mail is in the Inbox before any other folder is synced, so a
    /// folder that fails the round (a protocol error, a lost connection) no longer keeps it out: the folders had been
    /// synced in LIST order, where a server may list Archive and Junk before INBOX.
    static func syncOrder(_ folders: [MappedFolder]) -> [MappedFolder] {
        let last = roleOrder.count
        return folders.enumerated()
            .sorted { a, b in
                let ra = roleOrder.firstIndex(of: a.element.role) ?? last, rb = roleOrder.firstIndex(of: b.element.role) ?? last
                return ra != rb ? ra < rb : a.offset < b.offset
            }
            .map(\.element)
    }

    /// The role folders in the order they are synced, ahead of the folders with no role: the Inbox, what the user wrote
    /// (Sent, Drafts), Archive, Junk (mail that may be misfiled new mail), Trash, then Gmail's virtual folders.
    static let roleOrder: [FolderRole] = [.inbox, .sent, .drafts, .archive, .junk, .trash, .flagged, .important, .all]
}
