import EventModel

/// The unread counts view: unread messages per account and folder, per account over all folders, and the
/// badge (unread mail in Inbox-role folders only), with each folder's message total. A message in several
/// folders of one account (Inbox and All Mail) counts once per folder and once in the account total.
/// Counters are kept up to date on every change, so reads are one key lookup. The counts by category are the
/// threads view's (`ThreadsProjector.countKey`): by the thread's category, as a category tab lists threads.
package final class UnreadProjector: Projector {
    package static let name = ViewName.unread
    /// 2: user actions and compensations fold in.
    /// 3: bounded keys and values (`Key`, `ViewBounds`).
    /// 4: a message's state in each scope kept in its `infos` record (no `messages` table).
    /// 5: no counters by category (the threads view's since its schema 7), nor a message's category in `infos`.
    /// 6: a copy seen again in another folder (a Gmail message kept in All Mail when it left its label) moves there with
    /// its counts, its read state the event's.
    /// 7: the whole-account and badge counters under folder parts no path takes (`FolderPart`): a server folder named
    /// `#account` or `#badge` counted into them.
    package static let schemaVersion: UInt32 = 7
    /// What `apply` folds: the copy changes (`CopyChange.changes(of:)`) and its own cases.
    package static let handledEvents = EventTypeSet(CopyChange.eventTypes + [.folderDiscovered, .emailReceived, .flagsChanged, .emailExpunged])
    static let emailsTable = Table<UnreadEmail>(.unread, "emails")
    static let countsTable = Table<Int>(.unread, "counts")
    static let folderRolesTable = Table<FolderRole>(.unread, "folders")
    package static let infosTable = Table<MessageInfo>(.unread, "infos")

    let emails: ViewTable<UnreadEmail>
    let counts: ViewTable<Int>
    let folderRoles: ViewTable<FolderRole>
    /// Per message (account, message key): its copies in the account and in each folder.
    let infos: ViewTable<MessageInfo>
    /// The folders' Inbox roles asked about in this batch.
    private var inboxMemo = InboxMemo()

    /// The folder part of account-wide counters.
    package static let accountScope = FolderPart.wholeAccount
    /// The folder part of badge counters.
    package static let badgeScope = FolderPart.badge
    /// The category part of message totals (not only unread) per folder: `Key(account, folder, "#total")`.
    package static let totalCategory = "#total"

    package init(context: FoldContext) {
        emails = context.table(Self.emailsTable)
        counts = context.table(Self.countsTable)
        folderRoles = context.table(Self.folderRolesTable)
        infos = context.table(Self.infosTable)
    }

    /// The counter key for (scope account, folder part, `all` or `totalCategory`).
    package static func countKey(account: String, folder: FolderPart, category: String) -> [UInt8] {
        var k = Key(account)
        k.folder(folder)
        k.string(category)
        return k.bytes
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        if let changes = CopyChange.changes(of: decoded) {
            for c in changes { try apply(c) }
            return
        }
        switch decoded {
        case .folderDiscovered(let p):
            folderRoles.set(Key(account, p.folder).bytes, p.role)
            inboxMemo.forget()
        case .emailReceived(let p):
            let key = Key(p.emailID).bytes
            if try emails.get(key) != nil {
                // The same copy seen again: where it is and its read state are the event's (as in the threads view).
                try apply(CopyChange(emailID: p.emailID, folder: p.folder, flags: p.flags))
                return
            }
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
            // Out of one folder and into the other, the message's record read and written once.
            let same = seen == e.seen
            let ik = Key(e.account, e.messageKey).bytes
            var info = try infos.get(ik) ?? MessageInfo()
            try change(&info, e, copies: -1, seen: e.seen ? -1 : 0, accountScope: !same)
            // A record the move out emptied starts again from nothing, as one dropped and read again would.
            if info.isEmpty { info = MessageInfo() }
            e.folder = folder
            e.seen = seen
            try change(&info, e, copies: 1, seen: seen ? 1 : 0, accountScope: !same)
            infos.set(ik, info.isEmpty ? nil : info)
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
        try change(&info, e, copies: copies, seen: seen, accountScope: accountScope)
        infos.set(ik, info.isEmpty ? nil : info)
    }

    /// Applies a change of one copy to `info`, the record of its message, adjusting counters.
    private func change(_ info: inout MessageInfo, _ e: UnreadEmail, copies: Int, seen: Int, accountScope: Bool) throws {
        let inbox = try inboxMemo.isInbox(account: e.account, folder: e.folder, in: folderRoles)
        let inFolder = adjust(info.copies(in: e.folder), copies: copies, seen: seen,
                              account: e.account, folder: .path(e.folder), badge: inbox, total: true)
        info.setCopies(inFolder, in: e.folder)
        if accountScope {
            info.account = adjust(info.account, copies: copies, seen: seen,
                                  account: e.account, folder: UnreadProjector.accountScope, badge: false, total: false)
        }
    }

    /// Changes one message's copies in one scope and the counters that follow from it: unread of (`account`,
    /// `folder`), and of the badges when `badge`; the scope's total when `total`. Returns the new copies (a
    /// scope with no copy left holds nothing: zero).
    private func adjust(_ before: CopyCount, copies: Int, seen: Int,
                        account: String, folder: FolderPart, badge: Bool, total: Bool) -> CopyCount {
        var after = before
        after.copies += copies
        after.seenCopies += seen
        let unreadDelta = (after.isUnread ? 1 : 0) - (before.isUnread ? 1 : 0)
        if unreadDelta != 0 {
            bump(account, folder, unreadDelta)
            if badge {
                bump(account, UnreadProjector.badgeScope, unreadDelta)
                bump("*", UnreadProjector.badgeScope, unreadDelta)
            }
        }
        let existDelta = (after.exists ? 1 : 0) - (before.exists ? 1 : 0)
        if total && existDelta != 0 { pendingCounts[CounterID(account, folder, UnreadProjector.totalCategory), default: 0] += existDelta }
        return after.exists ? after : CopyCount()
    }

    /// Unread counter changes of this batch, added to the stored counters at flush: a batch moving thousands of
    /// copies between the same folders changes each counter once.
    private var pendingCounts: [CounterID: Int] = [:]

    /// A counter: scope account, folder, `all` or `#total`.
    private struct CounterID: Hashable {
        let account: String, folder: FolderPart, category: String
        init(_ account: String, _ folder: FolderPart, _ category: String) {
            self.account = account
            self.folder = folder
            self.category = category
        }
    }

    /// Moves the unread counter of (`account`, `folder`) by `delta`.
    private func bump(_ account: String, _ folder: FolderPart, _ delta: Int) {
        pendingCounts[CounterID(account, folder, "all"), default: 0] += delta
    }

    package func prepareFlush() throws {
        for (id, delta) in pendingCounts where delta != 0 {
            let k = UnreadProjector.countKey(account: id.account, folder: id.folder, category: id.category)
            let v = (try counts.get(k) ?? 0) + delta
            counts.set(k, v == 0 ? nil : v)
        }
        pendingCounts.removeAll(keepingCapacity: true)
    }

    package func discardPending() {
        pendingCounts.removeAll(keepingCapacity: true)
        inboxMemo.forget()
    }
}
