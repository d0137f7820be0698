import IMAPClient
import IMAPProtocol
import SyncCore

extension SyncEngine {
    /// `folders` without the personal namespace's prefix listed as a folder of its own (`Mail` under `Mail/`,
    /// `FolderMapper.namespaceRoot`) when it is only the namespace's root: its STATUS says no message, or says INBOX's
    /// UIDVALIDITY, UIDNEXT and message count (Dovecot with a maildir and `inbox = yes` lists the root as INBOX's own
    /// mailbox under another name). Thunderbird and mbsync show such a folder as the container of the user's folders,
    /// not a mailbox. One that holds mail of its own, or whose STATUS the server refuses or leaves short, is synced under
    /// its name as any folder (mail is never left out). Until the fifteenth round it was synced always: an empty `Mail`
    /// in every folder list, or every Inbox message a second time in it.
    ///
    /// The counts come from the LIST's STATUS (`listedStatus`) when it gave them, else from one STATUS command each
    /// (two at most a sync); a connection failure throws. The root left out is kept in ``skippedRoot`` (nil when none is):
    /// `--folder` naming it is told what it is (``selected(_:)``), not that it does not exist.
    func withoutNamespaceRoot(_ folders: [MappedFolder], prefix: String?, conn: IMAPConnection) throws -> [MappedFolder] {
        skippedRoot = nil
        guard let root = FolderMapper.namespaceRoot(folders, namespacePrefix: prefix) else { return folders }
        let asked: [StatusAttribute] = [.messages, .uidValidity, .uidNext]
        func status(_ folder: MappedFolder) throws -> [String: UInt64]? {
            if let listed = listedStatus[folder.mailbox.raw], asked.allSatisfy({ listed[$0.rawValue] != nil }) { return listed }
            do {
                let answered = try conn.status(folder.mailbox, asked)
                return asked.allSatisfy { answered[$0.rawValue] != nil } ? answered : nil
            } catch .commandFailed {
                return nil
            } catch {
                throw SyncError.server(error)
            }
        }
        guard let own = try status(root) else { return folders }
        let empty = own[StatusAttribute.messages.rawValue] == 0
        var sameAsInbox = false
        if !empty, let inbox = folders.first(where: { $0.mailbox.isInbox }), let theirs = try status(inbox) {
            sameAsInbox = asked.allSatisfy { own[$0.rawValue] == theirs[$0.rawValue] }
        }
        guard empty || sameAsInbox else { return folders }
        skippedRoot = NamespaceRootSkip(folder: root.path, sameAsInbox: sameAsInbox)
        return folders.filter { !$0.path.utf8.elementsEqual(root.path.utf8) }
    }
}
