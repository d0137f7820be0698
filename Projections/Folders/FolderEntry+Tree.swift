/// Where a folder sits in its account's tree of folders, read from its path and the name shown (the path's last
/// part: `FolderNaming.displayName(forPath:delimiter:)`), for listing a folder's subfolders right after it.
extension FolderEntry {
    /// The character between the path's parts: the one before the name shown, when the path ends with that name
    /// after something; nil for a folder at the top (or a name that is not the path's end).
    package var delimiter: Character? {
        guard path.count > displayName.count, path.hasSuffix(displayName) else { return nil }
        return path.dropLast(displayName.count).last
    }

    /// The path's parts, from the top (one part for a folder at the top).
    package var pathParts: [Substring] {
        guard let d = delimiter else { return [Substring(path)] }
        return path.split(separator: d, omittingEmptySubsequences: false)
    }

    /// The paths of the folders above this one, nearest last (`Lists` and `Lists/dev` for `Lists/dev/rust`).
    package var ancestorPaths: [String] {
        guard let d = delimiter else { return [] }
        let parts = pathParts
        return (1..<max(1, parts.count)).map { parts[0..<$0].joined(separator: String(d)) }
    }

    /// `entries` (one account's folders) in the folder list's order, each with its depth: the folders at the top
    /// (those with no listed folder above them: Gmail's `[Gmail]/Sent Mail`, whose `[Gmail]` is no folder, is one)
    /// ordered by `listedBefore`, each followed by its subfolders at depth + 1, ordered the same way, and theirs.
    /// An iterative walk: a path of any depth costs no stack.
    package static func tree(_ entries: [FolderEntry]) -> [(entry: FolderEntry, depth: Int)] {
        let paths = Set(entries.map(\.path))
        var children: [String: [FolderEntry]] = [:]
        var roots: [FolderEntry] = []
        for e in entries {
            if let parent = e.ancestorPaths.last(where: paths.contains) {
                children[parent, default: []].append(e)
            } else {
                roots.append(e)
            }
        }
        var out: [(entry: FolderEntry, depth: Int)] = []
        out.reserveCapacity(entries.count)
        var pending: [(FolderEntry, Int)] = roots.sorted(by: listedBefore).reversed().map { ($0, 0) }
        while let (e, depth) = pending.popLast() {
            out.append((e, depth))
            if let below = children[e.path] {
                pending += below.sorted(by: listedBefore).reversed().map { ($0, depth + 1) }
            }
        }
        return out
    }

    /// The folder list's order among siblings: by role (Inbox, Starred, Sent, Drafts, Spam, Trash, Archive, All, Important, then
    /// the user's folders), then by path part by part, ignoring case, so that a folder's subfolders follow it and
    /// `Lists/dev` comes before `Lists 2024`; the exact path settles what case alone tells apart.
    package static func listedBefore(_ a: FolderEntry, _ b: FolderEntry) -> Bool {
        let (ra, rb) = (FoldersProjector.order(a.role), FoldersProjector.order(b.role))
        if ra != rb { return ra < rb }
        let (pa, pb) = (a.pathParts.map { $0.lowercased() }, b.pathParts.map { $0.lowercased() })
        if pa != pb { return pa.lexicographicallyPrecedes(pb) }
        return a.path < b.path
    }
}
