/// Reads the folders view.
package struct FoldersReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The folders of `account`, in the folder list's order: system folders first, then the others by path, each
    /// folder's subfolders right after it (`FolderEntry.tree`).
    package func folders(account: String) throws -> [FolderEntry] { try tree(account: account).map(\.entry) }

    /// The same, each folder with its depth in the tree (`FolderEntry.tree`).
    package func tree(account: String) throws -> [(entry: FolderEntry, depth: Int)] {
        FolderEntry.tree(try snapshot.prefixed(FoldersProjector.listTable, Key(account).bytes).map(\.1))
    }

    /// The accounts that have folders, in key order: each by its name (the folder entry's), not its key part (a name over
    /// the key's 96 bytes is hashed there).
    package func accounts() throws -> [String] {
        var out: [String] = []
        // One seek per account: after reading an account's first key, jump past its prefix.
        var start: [UInt8] = []
        while true {
            var next: [UInt8]?
            try snapshot.reader.scan(FoldersProjector.listTable.name, from: start) { key, _ in
                next = key
                return false
            }
            guard let key = next else { break }
            var r = KeyReader(key)
            let part = r.string()
            let prefix = Key(part).bytes
            out.append(try snapshot.prefixed(FoldersProjector.listTable, prefix, limit: 1).first?.1.account ?? part)
            start = prefix
            start[start.count - 1] = 1 // just past every key of this account (its terminator is 0)
        }
        return out
    }
}
