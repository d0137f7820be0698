import EventModel
import IMAPProtocol

/// Folder mapping in three tiers: RFC 6154 SPECIAL-USE attributes, then the provider's names, then
/// case-insensitive well-known names with translations (`FolderNaming`). A role taken by a higher tier is not
/// given again by names, and names give a role to one folder only. `\Noselect` folders and the provider's excluded
/// folders are skipped, except an excluded folder that is All Mail (Gmail's archive target), which is kept unsyncable
/// so its role is known: by its `\All` attribute, or, on a server that does not send one, by the provider's name map
/// (`[Gmail]/All Mail`), unless another folder has `\All` (SPECIAL-USE wins). Pure.
///
/// Tier 3 is conservative and stable: only a folder at the top level, directly under INBOX (Courier's personal
/// namespace `INBOX.`) or directly under the personal namespace's prefix (`Mail/`) is a candidate, never a nested one
/// (`INBOX.Projects.Trash`, `Clients/Acme/Sent`: the user's own folders), only for a role no higher tier gave, and
/// never for `\Flagged` (no name gives it, `FolderNaming`: an ordinary folder named `Flagged` or `Starred` had
/// replaced the virtual Starred view); its last name component must equal a known name (no substrings: `Presentations`
/// is not Sent, `Sent to boss` is not Sent); among the candidates for a role, the shorter path wins, then the smaller
/// name in code-point order: the same role whatever order the server lists its folders in, so another client creating
/// a folder cannot move a role between syncs unless the new folder is a better candidate by these rules.
package enum FolderMapper {
    /// The error when a server lists no folder that can hold mail.
    package struct NoEmailFolders: Error, CustomStringConvertible, Equatable {
        package init() {}
        package var description: String {
            "No email folders found: the server listed no selectable mail folder; check the account's user name and the server's folder setup"
        }
    }

    /// The syncable folders of a LIST response (in LIST order), each with its role. `namespacePrefix` is the user's
    /// personal namespace prefix (`NAMESPACE`, RFC 2342: `INBOX.`, `Mail/`), if the server has one: the provider's
    /// names, its excluded folders and tier 3's top level are taken below it (`INBOX.Bulk` is Yahoo's Bulk, `Mail/Sent`
    /// a top-level Sent); a folder directly under INBOX is taken so too without one (Courier's `INBOX.` namespace).
    ///
    /// Tier 2 gives a role only when no folder has it by SPECIAL-USE, wherever the server lists it (Outlook.com's
    /// SPECIAL-USE `Deleted` beside a legacy `Deleted Items`), and to one folder a role: among the provider's names
    /// for it, the best by ``Rank`` (Yahoo's `Bulk` before `Bulk Mail`), whatever the LIST order.
    ///
    /// `noMailbox`: the paths known to be names with no mailbox behind them (a parent deleted while it has subfolders,
    /// which Dovecot goes on listing with no `\NonExistent`): no role from the provider's names or their own (custom),
    /// so that a ghost `Trash` does not take the Trash role from a real folder (`Deleted`) that holds the mail.
    package static func map(_ items: [ListItem], provider: Provider, namespacePrefix: String? = nil,
                            noMailbox: Set<String> = []) throws(NoEmailFolders) -> [MappedFolder] {
        var out: [MappedFolder] = []
        var taken = Set<FolderRole>()
        var pending: [Int] = []
        var byName: [FolderRole: (index: Int, rank: Rank)] = [:]
        // The roles SPECIAL-USE gives (of the folders kept): no provider name gives one of them again.
        var specialUses = Set<FolderRole>()
        for item in items where item.isSelectable && !item.mailbox.isInbox {
            guard let use = item.specialUse else { continue }
            if use == .all || !excludes(provider, item.mailbox.name, namespacePrefix: namespacePrefix, delimiter: item.delimiter) {
                specialUses.insert(role(use))
            }
        }
        for item in items where item.isSelectable {
            let path = item.mailbox.isInbox ? "INBOX" : item.mailbox.name
            let relative = item.mailbox.isInbox ? path : relativePath(path, namespacePrefix: namespacePrefix, delimiter: item.delimiter)
            let excluded = excludes(provider, path, namespacePrefix: namespacePrefix, delimiter: item.delimiter)
            let providerRole = provider.mappedRole(path) ?? provider.mappedRole(relative)
            let allMail = item.specialUse == .all || (item.specialUse == nil && providerRole == .all)
            if excluded && !allMail { continue }
            var folder = MappedFolder(
                path: path, mailbox: item.mailbox,
                displayName: FolderNaming.displayName(forPath: path, delimiter: item.delimiter?.first ?? "/"),
                role: .custom, tier: .none, delimiter: item.delimiter, attributes: item.attributes, syncable: !excluded)
            if item.mailbox.isInbox {
                folder.role = .inbox
                folder.tier = .specialUse
            } else if let use = item.specialUse {
                folder.role = role(use)
                folder.tier = .specialUse
            } else if noMailbox.contains(path) {
                // A name with no mailbox: custom, no candidate.
            } else if let role = providerRole, !specialUses.contains(role) {
                // Tier 2's candidates: the best of each role wins below.
                let rank = Rank(folder, namespacePrefix: namespacePrefix)
                if let current = byName[role], !(rank < current.rank) {
                    pending.append(out.count)
                } else {
                    if let current = byName[role] { pending.append(current.index) }
                    byName[role] = (out.count, rank)
                }
            } else {
                pending.append(out.count)
            }
            if folder.tier != .none { taken.insert(folder.role) }
            out.append(folder)
        }
        for (role, winner) in byName {
            out[winner.index].role = role
            out[winner.index].tier = .providerName
            taken.insert(role)
        }
        // A folder kept only to be All Mail (excluded from sync) that is not All Mail: SPECIAL-USE `\All` is elsewhere
        // (it wins over All Mail by name), or another folder won the name. Dropped at the end (indices stay valid).
        let droppedIndices = Set(out.indices.filter { !out[$0].syncable && out[$0].role != .all })
        guard out.indices.contains(where: { out[$0].syncable }) else { throw NoEmailFolders() }
        // Tier 3: for each role still free, the best candidate by rank (not the first listed).
        var best: [FolderRole: (index: Int, rank: Rank)] = [:]
        for i in pending.sorted() where !droppedIndices.contains(i) {
            guard let role = nameRole(out[i]), !taken.contains(role) else { continue }
            let rank = Rank(out[i], namespacePrefix: namespacePrefix)
            // A nested folder is the user's own (`Projects/Trash`): no role by its name.
            if rank.nested { continue }
            if let current = best[role], !(rank < current.rank) { continue }
            best[role] = (i, rank)
        }
        for (role, winner) in best {
            out[winner.index].role = role
            out[winner.index].tier = .heuristic
        }
        return out.indices.filter { !droppedIndices.contains($0) }.map { out[$0] }
    }

    /// The folder of `folders` that is the personal namespace's prefix itself, listed as a mailbox of its own (`Mail`
    /// under `Mail/`: Dovecot lists it selectable), or nil: none listed, no prefix, or one whose root is INBOX (Courier's
    /// `INBOX.`: the Inbox is always synced). Whether it is synced is the caller's to tell (its messages): a container
    /// of the user's folders as a rule (Thunderbird and mbsync show it so), a mailbox when it holds mail.
    package static func namespaceRoot(_ folders: [MappedFolder], namespacePrefix: String?) -> MappedFolder? {
        guard let prefix = namespacePrefix, !prefix.isEmpty else { return nil }
        return folders.first { f in
            guard !f.mailbox.isInbox, let d = f.delimiter, !d.isEmpty else { return false }
            return (f.path + d).utf8.elementsEqual(prefix.utf8)
        }
    }

    /// Whether the provider excludes `path` from sync, by its full name or by its name below the namespace's prefix
    /// (iCloud's `Notes` listed as `INBOX.Notes`).
    static func excludes(_ provider: Provider, _ path: String, namespacePrefix: String?, delimiter: String?) -> Bool {
        provider.excludes(path, delimiter: delimiter)
            || provider.excludes(relativePath(path, namespacePrefix: namespacePrefix, delimiter: delimiter), delimiter: delimiter)
    }

    /// `path` below the personal namespace's prefix (`INBOX.Sent` -> `Sent` under `INBOX.`, `Mail/Sent` -> `Sent`
    /// under `Mail/`), or below `INBOX` and its delimiter without one (Courier lists `INBOX.Sent` with no NAMESPACE
    /// asked); the prefix compared case-insensitively (INBOX's is), the path itself when it is not below it or is the
    /// prefix alone.
    static func relativePath(_ path: String, namespacePrefix: String?, delimiter: String?) -> String {
        var prefixes: [String] = []
        if let p = namespacePrefix, !p.isEmpty { prefixes.append(p) }
        if let d = delimiter, !d.isEmpty { prefixes.append("INBOX" + d) }
        for p in prefixes where path.count > p.count && path.prefix(p.count).lowercased() == p.lowercased() {
            return String(path.dropFirst(p.count))
        }
        return path
    }

    /// How good a tier-3 candidate is (smaller wins): nested or not (a nested one is no candidate), then path length,
    /// then the path itself.
    struct Rank: Comparable {
        /// False at the top level (below the personal namespace's prefix) or directly under INBOX.
        var nested: Bool
        /// The path's length in characters.
        var length: Int
        /// The path, for a total order among equals.
        var path: String

        init(_ folder: MappedFolder, namespacePrefix: String? = nil) {
            var below = folder
            below.path = FolderMapper.relativePath(folder.path, namespacePrefix: namespacePrefix, delimiter: folder.delimiter)
            let parents = FolderMapper.components(below).dropLast()
            nested = !(parents.isEmpty || (parents.count == 1 && parents[parents.startIndex].uppercased() == "INBOX"))
            length = folder.path.count
            path = folder.path
        }

        static func < (a: Rank, b: Rank) -> Bool {
            if a.nested != b.nested { return !a.nested }
            if a.length != b.length { return a.length < b.length }
            return a.path.unicodeScalars.lexicographicallyPrecedes(b.path.unicodeScalars)
        }
    }

    /// A path's components split at the folder's delimiter (the whole path when the server has none).
    static func components(_ folder: MappedFolder) -> [String] {
        guard let d = folder.delimiter?.first else { return [folder.path] }
        return folder.path.split(separator: d, omittingEmptySubsequences: false).map(String.init)
    }

    /// The role a folder's last name component names exactly (case-insensitively, with the translations
    /// `FolderNaming` knows), or nil; never the Inbox's (only INBOX itself is the Inbox) nor `\Flagged` (no name gives it).
    static func nameRole(_ folder: MappedFolder) -> FolderRole? {
        guard let leaf = components(folder).last, !leaf.isEmpty else { return nil }
        // A delimiter given so that the leaf is taken whole (a `.` in a `/`-separated name is part of the name; with no
        // delimiter the whole path is one name): NUL, which no mailbox name holds.
        let role = FolderNaming.role(forPath: leaf, delimiter: folder.delimiter?.first ?? "\u{0}")
        return role == .custom || role == .inbox ? nil : role
    }

    static func role(_ use: SpecialUse) -> FolderRole {
        switch use {
        case .all: .all
        case .archive: .archive
        case .drafts: .drafts
        case .flagged: .flagged
        case .junk: .junk
        case .sent: .sent
        case .trash: .trash
        case .important: .important
        }
    }
}
