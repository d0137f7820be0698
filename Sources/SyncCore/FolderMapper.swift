import EventModel
import IMAPProtocol

/// Folder mapping in three tiers: RFC 6154 SPECIAL-USE attributes, then the provider's names, then
/// case-insensitive name heuristics (exact names and translations first, then substrings). A role
/// taken by a higher tier is not given again by heuristics. `\Noselect` folders and the provider's
/// excluded folders are skipped, except an excluded folder with the `\All` attribute (Gmail's All Mail), which
/// is kept unsyncable so its role is known (Gmail's archive target). Pure.
package enum FolderMapper {
    /// The error when a server lists no folder that can hold mail.
    package struct NoEmailFolders: Error, CustomStringConvertible, Equatable {
        package init() {}
        package var description: String {
            "No email folders found: the server listed no selectable mail folder; check the account's user name and the server's folder setup"
        }
    }

    /// Substrings tier 3 tries last, for folders whose names only contain a role word.
    static let stems: [(FolderRole, [String])] = [
        (.sent, ["sent", "gesendet", "envoy", "enviad", "inviat", "verzonden", "skickat", "отправлен"]),
        (.drafts, ["draft", "entw", "brouillon", "borrador", "bozz", "concept", "черновик"]),
        (.trash, ["trash", "deleted", "papierkorb", "gelöscht", "corbeille", "papelera", "cestino", "prullenbak", "корзин"]),
        (.junk, ["junk", "spam", "bulk", "indésirable", "no deseado"]),
        (.archive, ["archiv", "arkiv", "archief", "архив"]),
    ]

    /// The syncable folders of a LIST response, each with its role.
    package static func map(_ items: [ListItem], provider: Provider) throws(NoEmailFolders) -> [MappedFolder] {
        var out: [MappedFolder] = []
        var taken = Set<FolderRole>()
        var pending: [Int] = []
        for item in items where item.isSelectable {
            let path = item.mailbox.isInbox ? "INBOX" : item.mailbox.name
            let excluded = provider.excludes(path, delimiter: item.delimiter)
            if excluded && item.specialUse != .all { continue }
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
            } else if let role = provider.mappedRole(path) {
                folder.role = role
                folder.tier = .providerName
            } else {
                pending.append(out.count)
            }
            if folder.tier != .none { taken.insert(folder.role) }
            out.append(folder)
        }
        guard out.contains(where: \.syncable) else { throw NoEmailFolders() }
        // Tier 3: exact names first, then substrings; a role only once.
        for exact in [true, false] {
            for i in pending where out[i].tier == .none {
                let role = exact ? exactRole(out[i]) : stemRole(out[i])
                guard let role, role != .custom, role != .inbox, !taken.contains(role) else { continue }
                out[i].role = role
                out[i].tier = .heuristic
                taken.insert(role)
            }
        }
        return out
    }

    static func exactRole(_ f: MappedFolder) -> FolderRole? {
        let r = FolderNaming.role(forPath: f.path, delimiter: f.delimiter?.first)
        return r == .custom ? nil : r
    }

    static func stemRole(_ f: MappedFolder) -> FolderRole? {
        let leaf = f.displayName.lowercased()
        return stems.first { _, words in words.contains { leaf.contains($0) } }?.0
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
