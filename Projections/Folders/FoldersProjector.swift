import EventModel

/// The folders view: every account's folders with their roles. Their order and badges are applied when
/// read (system folders first: Inbox, Starred, Sent, Drafts, Spam, Trash, Archive; then custom folders
/// alphabetically), with counts from the unread view.
package final class FoldersProjector: Projector {
    package static let name = ViewName.folders
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`).
    /// 3: a folder known only from its mail named `Flagged` or `Starred` has no role (`FolderNaming`): it had replaced the
    /// virtual Starred view.
    /// 4: a folder recorded with `\NonExistent` or `\Noselect` is not selectable (`FolderEntry.selectable`): a parent
    /// deleted while it has children had stayed listed as an empty folder.
    package static let schemaVersion: UInt32 = 4
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.emailReceived, .folderDiscovered, .folderRemoved])
    static let listTable = Table<FolderEntry>(.folders, "list")

    let list: ViewTable<FolderEntry>

    package init(context: FoldContext) {
        list = context.table(Self.listTable)
    }


    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        switch decoded {
        case .folderDiscovered(let p):
            let selectable = !p.attributes.contains { FoldersProjector.notSelectable.contains($0.lowercased()) }
            list.set(Key(account, p.folder).bytes, FolderEntry(account: account, path: p.folder, displayName: p.displayName, role: p.role,
                                                               selectable: selectable))
        case .folderRemoved(let p):
            list.set(Key(account, p.folder).bytes, nil)
        case .emailReceived(let p):
            // A folder known only from its mail (an import source without FolderDiscovered).
            let k = Key(account, p.folder).bytes
            if try list.get(k) == nil {
                list.set(k, FolderEntry(account: account, path: p.folder, displayName: FolderNaming.displayName(forPath: p.folder),
                                        role: FolderNaming.role(forPath: p.folder)))
            }
        default:
            break
        }
    }

    /// The LIST attributes (lowercased) of a name that holds no mail (RFC 3501 `\Noselect`, RFC 5258 `\NonExistent`).
    package static let notSelectable: Set<String> = ["\\noselect", "\\nonexistent"]

    /// The position of a role in the folder list (system folders first).
    package static func order(_ role: FolderRole) -> Int {
        switch role {
        case .inbox: 0
        case .flagged: 1
        case .sent: 2
        case .drafts: 3
        case .junk: 4
        case .trash: 5
        case .archive: 6
        case .all: 7
        case .important: 8
        case .custom: 9
        }
    }
}
