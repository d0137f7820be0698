import EventModel

/// The unread counts view: unread messages per account, folder and category (and All), per account
/// over all folders, and the badge (unread mail in Inbox-role folders only). A message in several
/// folders of one account (Inbox and All Mail) counts once per folder and once in the account total.
/// Counters are kept up to date on every change, so reads are one key lookup.
package final class UnreadProjector: Projector {
    package static let name = ViewName.unread
    /// 2: user actions and compensations fold in.
    /// 3: bounded keys and values (`Key`, `ViewBounds`).
    package static let schemaVersion: UInt32 = 3
    static let emailsTable = Table<UnreadEmail>(.unread, "emails")
    static let messagesTable = Table<MessageState>(.unread, "messages")
    static let countsTable = Table<Int>(.unread, "counts")
    static let folderRolesTable = Table<FolderRole>(.unread, "folders")
    static let infosTable = Table<MessageInfo>(.unread, "infos")

    let emails: ViewTable<UnreadEmail>
    let messages: ViewTable<MessageState>
    let counts: ViewTable<Int>
    let folderRoles: ViewTable<FolderRole>
    /// Per message (account, message key): its category and the folders holding a copy.
    let infos: ViewTable<MessageInfo>

    /// The folder part of account-wide counters.
    package static let accountScope = "#account"
    /// The folder part of badge counters.
    package static let badgeScope = "#badge"
    /// The folder part of message totals (not only unread) per folder: `Key(account, folder, "#total")`.
    package static let totalCategory = "#total"

    package init(context: FoldContext) {
        emails = context.table(Self.emailsTable)
        messages = context.table(Self.messagesTable)
        counts = context.table(Self.countsTable)
        folderRoles = context.table(Self.folderRolesTable)
        infos = context.table(Self.infosTable)
    }

    /// The counter key for (scope account, folder, category name or `all`).
    package static func countKey(account: String, folder: String, category: String) -> [UInt8] {
        Key(account, folder, category).bytes
    }

    package func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        let account = event.envelope.account
        if let changes = CopyChange.changes(of: decoded) {
            for c in changes { try apply(c) }
            return
        }
        switch decoded {
        case .folderDiscovered(let p):
            folderRoles.set(Key(account, p.folder).bytes, p.role)
        case .emailReceived(let p):
            let key = Key(p.emailID).bytes
            if try emails.get(key) != nil { return }
            let messageKey = ViewBounds.id(p.messageKey)
            let e = UnreadEmail(account: account, folder: p.folder, messageKey: messageKey, seen: p.flags.contains("\\Seen"))
            emails.set(key, e)
            try change(e, copies: 1, seen: e.seen ? 1 : 0)
        case .flagsChanged(let p):
            let key = Key(p.emailID).bytes
            guard var e = try emails.get(key) else { return }
            let seen = p.flags.contains("\\Seen")
            if seen == e.seen { return }
            e.seen = seen
            emails.set(key, e)
            try change(e, copies: 0, seen: seen ? 1 : -1)
        case .emailExpunged(let p):
            let key = Key(p.emailID).bytes
            guard let e = try emails.get(key) else { return }
            emails.set(key, nil)
            try change(e, copies: -1, seen: e.seen ? -1 : 0)
        case .emailCategorized(let p):
            guard let e = try emails.get(Key(p.emailID).bytes) else { return }
            let ik = Key(e.account, e.messageKey).bytes
            var info = try infos.get(ik) ?? MessageInfo()
            if info.category == p.category { return }
            // Re-file the message's state under the new category in every scope that holds it.
            try recategorize(account: e.account, messageKey: e.messageKey, folders: info.folders, from: info.category, to: p.category)
            info.category = p.category
            infos.set(ik, info)
        default:
            break
        }
    }


    /// An action or compensation: the copy moves folder (its counts with it) and/or its read state changes.
    private func apply(_ c: CopyChange) throws {
        let key = Key(c.emailID).bytes
        guard var e = try emails.get(key) else { return }
        let seen = c.applied(to: e.seen ? ["\\Seen"] : []).contains("\\Seen")
        if let folder = c.folder, folder != e.folder {
            let same = seen == e.seen
            try change(e, copies: -1, seen: e.seen ? -1 : 0, accountScope: !same)
            e.folder = folder
            e.seen = seen
            try change(e, copies: 1, seen: seen ? 1 : 0, accountScope: !same)
        } else if seen != e.seen {
            e.seen = seen
            try change(e, copies: 0, seen: seen ? 1 : -1)
        } else {
            return
        }
        emails.set(key, e)
    }

    /// Applies a change of one copy to the folder scope and the account scope, adjusting counters.
    /// `accountScope: false` leaves the account-wide state alone (a copy moving between folders with its read
    /// state unchanged is the same message in the account).
    private func change(_ e: UnreadEmail, copies: Int, seen: Int, accountScope: Bool = true) throws {
        let ik = Key(e.account, e.messageKey).bytes
        var info = try infos.get(ik) ?? MessageInfo()
        let category = info.category
        let inbox = try folderRoles.isInbox(account: e.account, folder: e.folder)
        defer { infos.set(ik, info.folders.isEmpty && info.category == .uncategorized ? nil : info) }
        try adjust(stateKey: Key(e.account, e.folder, e.messageKey).bytes, copies: copies, seen: seen, category: category,
                   counters: [(e.account, e.folder)] + (inbox ? [(e.account, UnreadProjector.badgeScope), ("*", UnreadProjector.badgeScope)] : []),
                   totals: [(e.account, e.folder)])
        let holds = (try messages.get(Key(e.account, e.folder, e.messageKey).bytes)) != nil
        if holds && !info.folders.contains(e.folder) { info.folders.append(e.folder); info.folders.sort() }
        if !holds { info.folders.removeAll { $0 == e.folder } }
        guard accountScope else { return }
        try adjust(stateKey: Key(e.account, UnreadProjector.accountScope, e.messageKey).bytes, copies: copies, seen: seen,
                   category: category, counters: [(e.account, UnreadProjector.accountScope)], totals: [])
    }

    private func adjust(stateKey: [UInt8], copies: Int, seen: Int, category: AICategory,
                        counters: [(String, String)], totals: [(String, String)]) throws {
        var state = try messages.get(stateKey) ?? MessageState()
        let wasUnread = state.isUnread, existed = state.exists
        state.copies += copies
        state.seenCopies += seen
        state.category = category
        messages.set(stateKey, state.exists ? state : nil)
        let unreadDelta = (state.isUnread ? 1 : 0) - (wasUnread ? 1 : 0)
        if unreadDelta != 0 {
            for (a, f) in counters {
                try bump(a, f, "all", unreadDelta)
                try bump(a, f, category.description, unreadDelta)
            }
        }
        let existDelta = (state.exists ? 1 : 0) - (existed ? 1 : 0)
        if existDelta != 0 { for (a, f) in totals { try bump(a, f, UnreadProjector.totalCategory, existDelta) } }
    }

    private func bump(_ account: String, _ folder: String, _ category: String, _ delta: Int) throws {
        let k = UnreadProjector.countKey(account: account, folder: folder, category: category)
        let v = (try counts.get(k) ?? 0) + delta
        counts.set(k, v == 0 ? nil : v)
    }

    private func recategorize(account: String, messageKey: String, folders: [String], from old: AICategory,
                              to new: AICategory) throws {
        // Every folder holding a copy of the message, plus the account scope.
        var scopes: [(String, Bool)] = [(UnreadProjector.accountScope, false)]
        for folder in folders { scopes.append((folder, try folderRoles.isInbox(account: account, folder: folder))) }
        for (folder, inbox) in scopes {
            let sk = Key(account, folder, messageKey).bytes
            guard var state = try messages.get(sk) else { continue }
            state.category = new
            messages.set(sk, state)
            if state.isUnread {
                var targets = [(account, folder)]
                if inbox { targets += [(account, UnreadProjector.badgeScope), ("*", UnreadProjector.badgeScope)] }
                for (a, f) in targets {
                    try bump(a, f, old.description, -1)
                    try bump(a, f, new.description, 1)
                }
            }
        }
    }

}
