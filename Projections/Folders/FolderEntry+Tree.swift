/// Where a folder sits in its account's tree of folders, read from its path and the name shown (the path's last
/// part: `FolderNaming.displayName(forPath:delimiter:)`), for listing a folder's subfolders right after it.
extension FolderEntry {
    /// The most levels the tree tells apart: a folder whose path has more parts than this (a server's path may be up
    /// to a LIST line long, 1 MiB) is listed at the top, its parts past the 32nd compared as one. Bounds the work of
    /// one folder to a few passes over its path.
    package static let maxTreeDepth = 32

    /// The character between the path's parts: the one before the name shown, when the path ends with that name
    /// after something; nil for a folder at the top (or an empty name, or one that is not the path's end).
    package var delimiter: Character? {
        guard !displayName.isEmpty, path.count > displayName.count, path.hasSuffix(displayName) else { return nil }
        return path.dropLast(displayName.count).last
    }

    /// The path's parts, from the top (one part for a folder at the top); at most `maxTreeDepth + 1`, the last one
    /// holding the rest of a deeper path.
    package var pathParts: [Substring] {
        guard let d = delimiter else { return [Substring(path)] }
        return path.split(separator: d, maxSplits: FolderEntry.maxTreeDepth, omittingEmptySubsequences: false)
    }

    /// The paths of the folders above this one, nearest last (`Lists` and `Lists/dev` for `Lists/dev/rust`); none
    /// for a path of more than `maxTreeDepth` parts.
    package var ancestorPaths: [String] {
        guard let d = delimiter else { return [] }
        let parts = pathParts
        guard parts.count <= FolderEntry.maxTreeDepth else { return [] }
        return (1..<max(1, parts.count)).map { parts[0..<$0].joined(separator: String(d)) }
    }

    /// `entries` (one account's folders) in the folder list's order, each with its depth: the folders at the top
    /// (those with no listed folder above them: Gmail's `[Gmail]/Sent Mail`, whose `[Gmail]` is no folder, is one)
    /// ordered by `SortKey`, each followed by its subfolders at depth + 1, ordered the same way, and theirs.
    /// Each folder's path is split once; an iterative walk, so a deep tree costs no stack.
    package static func tree(_ entries: [FolderEntry]) -> [(entry: FolderEntry, depth: Int)] {
        let paths = Set(entries.map(\.path))
        let keys = entries.map(SortKey.init)
        var children: [String: [Int]] = [:]
        var roots: [Int] = []
        for (i, e) in entries.enumerated() {
            if let parent = e.ancestorPaths.last(where: paths.contains) {
                children[parent, default: []].append(i)
            } else {
                roots.append(i)
            }
        }
        func ordered(_ indices: [Int]) -> [Int] { indices.sorted { keys[$0] < keys[$1] } }
        var out: [(entry: FolderEntry, depth: Int)] = []
        out.reserveCapacity(entries.count)
        var pending: [(Int, Int)] = ordered(roots).reversed().map { ($0, 0) }
        while let (i, depth) = pending.popLast() {
            out.append((entries[i], depth))
            if let below = children[entries[i].path] { pending += ordered(below).reversed().map { ($0, depth + 1) } }
        }
        return out
    }

    /// The order of siblings, worked out once per folder: by role (Inbox, Starred, Sent, Drafts, Spam, Trash, Archive,
    /// All, Important, then the user's folders), then by path part by part, ignoring case, so that `Lists/dev` comes
    /// before `Lists 2024`; the exact path settles what case alone tells apart.
    struct SortKey: Comparable {
        let role: Int
        let parts: [String]
        let path: String

        init(_ e: FolderEntry) {
            role = FoldersProjector.order(e.role)
            parts = e.pathParts.map { $0.lowercased() }
            path = e.path
        }

        static func < (a: SortKey, b: SortKey) -> Bool {
            if a.role != b.role { return a.role < b.role }
            if a.parts != b.parts { return a.parts.lexicographicallyPrecedes(b.parts) }
            return a.path < b.path
        }
    }
}
