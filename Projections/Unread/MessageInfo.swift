import EventModel

/// Per message of an account (account, message key): its copies in the account, and its copies in each folder
/// holding one. One record per message, read and written once per change: the unread state of
/// every scope a message is in lives here (schema 4; until then each scope's state was a row of its own, two
/// more random keys written per message, ~17% of the pages a 1M-message fold dirtied).
package struct MessageInfo: BinaryField, Equatable, Sendable {
    /// The message in the account scope (every folder).
    package var account = CopyCount()
    /// The folders holding a copy, by name, each with its copies there.
    package var folders: [FolderCopies] = []

    package init() {}

    /// True when the record says nothing (no copy anywhere): it is deleted.
    package var isEmpty: Bool { folders.isEmpty && !account.exists }

    /// The copies in `folder` (none: zero).
    package func copies(in folder: String) -> CopyCount {
        folders.first { $0.folder == folder }?.count ?? CopyCount()
    }

    /// Sets the copies in `folder`: a folder with no copy left leaves the list.
    package mutating func setCopies(_ count: CopyCount, in folder: String) {
        let at = folders.firstIndex { $0.folder >= folder } ?? folders.endIndex
        let present = at < folders.endIndex && folders[at].folder == folder
        if !count.exists {
            if present { folders.remove(at: at) }
        } else if present {
            folders[at].count = count
        } else {
            folders.insert(FolderCopies(folder: folder, count: count), at: at)
        }
    }

    package func write(to w: inout ByteWriter) { account.write(to: &w); w.write(folders) }
    package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read()
        folders = try r.read()
    }
}
