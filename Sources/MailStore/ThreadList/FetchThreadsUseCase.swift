import EventModel
import Foundation
import Projections
import Views

/// The thread list's queries (the client spec's `FetchThreadsUseCase`), served from the views.
public struct FetchThreadsUseCase: Sendable {
    /// The spec's page size.
    public static let defaultPageSize = 25

    /// Where its views come from: the store's, or given ones (a past state built in a scratch folder).
    let source: @Sendable () throws -> ViewStore
    var views: ViewStore { get throws { try source() } }
    /// The accounts removed now (`MailStore.removedAccounts()`), which the reads across accounts leave out; read once
    /// per such read.
    let removedSource: @Sendable () throws -> Set<String>

    /// The thread list of `store` (its views are opened when first needed).
    public init(store: MailStore) {
        source = { try store.views() }
        removedSource = { try store.removedAccounts() }
    }

    /// The thread list over given views (without the log, no account is known to be removed).
    package init(views: ViewStore) {
        source = { views }
        removedSource = { [] }
    }

    /// A page of the threads of `folderId` in `accountId` (a thread is in a folder when any of its emails
    /// is), optionally only one category (`nil` = All; forums and uncategorized appear under All only),
    /// newest first, after `cursor`.
    ///
    /// An account with no folders gives the empty page; a folder the account does not have throws
    /// `ThreadListError.folderNotFound`, a name listed with no mailbox (a ghost parent) `ThreadListError.folderHoldsNoMail`. `\Starred` (``starredID``) is the account's Starred view: its `\Flagged`-role
    /// folder (Gmail's `[Gmail]/Starred`), else the virtual Starred folder: every thread with a flagged copy, once.
    /// `Starred` (``starredName``) names that view too where the account has no folder of that path (an ordinary folder
    /// named `Starred` is read as itself); so does `\Starred`: a server folder of that very path is read as itself.
    public func fetchThreads(accountId: String, folderId: String, category: AICategory? = nil,
                             cursor: ThreadCursor? = nil, pageSize: Int = defaultPageSize) throws -> ThreadPage {
        if let starred = try starredFolder(accountId: accountId, folderId: folderId) {
            return try page(scope: accountId, folder: starred, category: category, cursor: cursor, pageSize: pageSize)
        }
        let result = try page(scope: accountId, folder: .path(folderId), category: category, cursor: cursor, pageSize: pageSize)
        // Only an empty page can come from a folder that does not exist: check then, off the hot path.
        if result.threads.isEmpty {
            let path = try folderPath(accountId: accountId, folderId: folderId)
            if path != folderId {
                return try fetchThreads(accountId: accountId, folderId: path, category: category, cursor: cursor, pageSize: pageSize)
            }
        }
        return result
    }

    /// The path of the folder `folderId` names in `accountId`: `folderId` itself when the account has that folder
    /// (or no folders yet), the account's Inbox for `INBOX` in any case (RFC 3501 section 5.1: that name is
    /// case-insensitive, `inbox` and `Inbox` name it too); else `ThreadListError.folderNotFound`, or
    /// `ThreadListError.folderHoldsNoMail` for a name the server lists with no mailbox (`FolderEntry.selectable` false: a
    /// parent deleted while it has subfolders, listed only above them), whose listing would be empty for ever.
    public func folderPath(accountId: String, folderId: String) throws -> String {
        let folders: [FolderEntry]
        do { folders = try views.folders(account: accountId) } catch { throw ThreadListError.fetchFailed(underlying: error) }
        if let f = folders.first(where: { $0.path == folderId }), !f.selectable { throw ThreadListError.folderHoldsNoMail(id: folderId) }
        if folders.isEmpty || folders.contains(where: { $0.path == folderId }) { return folderId }
        if folderId.uppercased() == "INBOX", let inbox = folders.first(where: { $0.path.uppercased() == "INBOX" }) { return inbox.path }
        throw ThreadListError.folderNotFound(id: folderId)
    }

    /// A page of the unified inbox: the Inbox-role folders of every account, merged by date. With `folderId` (other than
    /// `INBOX`), the folder of that path in every account that has it (`Starred`: each account's, as
    /// ``fetchThreads(accountId:folderId:category:cursor:pageSize:)`` reads it, `\Starred` too), merged the same way; a folder no account
    /// has throws `ThreadListError.folderNotFound`.
    ///
    /// Accounts removed now (`MailStore.removedAccounts()`) are left out (their mail is read by naming the account);
    /// mail imported without a server stays in. With none removed, the unified inbox is one index (the views' `*` scope);
    /// with some, the Inbox-role folders of the others are merged, one page read of each in one read transaction.
    public func fetchUnifiedThreads(folderId: String? = nil, category: AICategory? = nil, cursor: ThreadCursor? = nil,
                                    pageSize: Int = defaultPageSize) throws -> ThreadPage {
        let views = try self.views
        let removed: Set<String>
        do { removed = try removedSource() } catch { throw ThreadListError.fetchFailed(underlying: error) }
        guard let folderId, folderId.uppercased() != "INBOX" else {
            if removed.isEmpty {
                return try page(scope: "*", folder: .path("INBOX"), category: category, cursor: cursor, pageSize: pageSize)
            }
            return try unifiedInbox(leavingOut: removed, category: category, cursor: cursor, pageSize: pageSize)
        }
        let accounts: [String]
        do { accounts = try views.accounts() } catch { throw ThreadListError.fetchFailed(underlying: error) }
        var folders: [(account: String, folder: FolderPart)] = []
        var noMail: ThreadListError?
        for a in accounts where !removed.contains(a) {
            if let starred = try starredFolder(accountId: a, folderId: folderId) {
                folders.append((a, starred))
                continue
            }
            do { folders.append((a, .path(try folderPath(accountId: a, folderId: folderId)))) } catch ThreadListError.folderNotFound {
                continue
            } catch let e as ThreadListError {
                guard case .folderHoldsNoMail = e else { throw e }
                noMail = e
            }
        }
        if folders.isEmpty { throw noMail ?? ThreadListError.folderNotFound(id: folderId) }
        return try mergedPage(folders: folders, category: category, cursor: cursor, pageSize: pageSize)
    }

    /// The unified inbox without the accounts of `removed`: the Inbox-role folders of every other account with folders
    /// (`INBOX` where an account has no folder of that role, as the views count it until its role is known), merged.
    private func unifiedInbox(leavingOut removed: Set<String>, category: AICategory?, cursor: ThreadCursor?,
                              pageSize: Int) throws -> ThreadPage {
        let folders: [(account: String, folder: String)]
        do { folders = try views.inboxFolders(leavingOut: removed) } catch { throw ThreadListError.fetchFailed(underlying: error) }
        return try mergedPage(folders: folders.map { ($0.account, .path($0.folder)) }, category: category, cursor: cursor, pageSize: pageSize)
    }

    /// A page of `folders` (account and folder each) merged newest first.
    private func mergedPage(folders: [(account: String, folder: FolderPart)], category: AICategory?, cursor: ThreadCursor?,
                            pageSize: Int) throws -> ThreadPage {
        guard pageSize > 0 else { return .empty }
        if category == .uncategorized || category == .forums { return .empty }
        do {
            let (rows, hasMore) = try views.threadPage(folders: folders, category: category,
                                                       after: cursor.map { ($0.latestDate, $0.threadID) }, limit: pageSize)
            let next = hasMore ? rows.last.map { ThreadCursor(latestDate: $0.latestDate, threadID: $0.id) } : nil
            return ThreadPage(threads: rows.map(FetchThreadsUseCase.summary), nextCursor: next, hasMore: hasMore)
        } catch {
            throw ThreadListError.fetchFailed(underlying: error)
        }
    }

    /// One thread by id.
    public func thread(id: String) throws -> ThreadSummary {
        let record: ThreadRow?
        do { record = try views.thread(id: id) } catch { throw ThreadListError.fetchFailed(underlying: error) }
        guard let record else { throw ThreadListError.threadNotFound(id: id) }
        return FetchThreadsUseCase.summary(record)
    }

    private func page(scope: String, folder: FolderPart, category: AICategory?, cursor: ThreadCursor?,
                      pageSize: Int) throws -> ThreadPage {
        guard pageSize > 0 else { return .empty }
        if category == .uncategorized || category == .forums { return .empty }
        do {
            let (rows, hasMore) = try views.threadPage(scope: scope, folder: folder, category: category,
                                                       after: cursor.map { ($0.latestDate, $0.threadID) }, limit: pageSize)
            let threads = rows.map(FetchThreadsUseCase.summary)
            let next = hasMore ? rows.last.map { ThreadCursor(latestDate: $0.latestDate, threadID: $0.id) } : nil
            return ThreadPage(threads: threads, nextCursor: next, hasMore: hasMore)
        } catch {
            throw ThreadListError.fetchFailed(underlying: error)
        }
    }

    /// The folder id of the Starred view (the account's `\Flagged`-role folder or the virtual one) in the style of IMAP's
    /// system names. A server may still have a folder of that path (Dovecot creates `\Starred`): that folder is read as
    /// itself, and the view is then named ``starredName`` where that is free (``starredFolderID(in:)``). Until
    /// 2026-12-07 the view's id was `Starred`, which an ordinary folder of that path took over.
    public static let starredID = "\\Starred"
    /// The name the Starred view is shown by, which also names it where the account has no folder of that path.
    public static let starredName = "Starred"

    /// Where `folderId` of an account is read from when it names the Starred view (``starredID`` or ``starredName``
    /// where the account has no folder of that path): its `\Flagged`-role folder, else the virtual Starred folder's
    /// listing; nil for any other folder id, or a path the account has (read as it is).
    func starredFolder(accountId: String, folderId: String) throws -> FolderPart? {
        guard folderId == FetchThreadsUseCase.starredID || folderId == FetchThreadsUseCase.starredName else { return nil }
        let folders: [FolderEntry]
        do { folders = try views.folders(account: accountId) } catch { throw ThreadListError.fetchFailed(underlying: error) }
        if folders.contains(where: { $0.path == folderId }) { return nil }
        return folders.first { $0.role == .flagged }.map { .path($0.path) } ?? ThreadsProjector.virtualStarred
    }

    /// The id the Starred view is listed by among `folders` (an account's): ``starredID``, else (a folder of that path
    /// being read as itself) ``starredName``; nil when folders take both (the virtual view is then not listed).
    static func starredFolderID(in folders: [FolderEntry]) -> String? {
        [starredID, starredName].first { id in !folders.contains { $0.path == id } }
    }

    static func summary(_ t: ThreadRow) -> ThreadSummary {
        ThreadSummary(id: t.id, accountId: t.account, subject: t.subject, participants: t.participants,
                      snippet: t.snippet, latestDate: t.latestDate.date, messageCount: t.messageCount,
                      unreadCount: t.unreadCount, isStarred: t.isStarred, hasAttachments: t.hasAttachments,
                      aiCategory: t.category, messageIds: t.messageIDs, folders: t.folders)
    }
}

extension FetchThreadsUseCase {
    /// Unread messages of a folder by category: `nil` is All, then each category with unread mail. A category counts
    /// the unread messages of the threads of that category (a thread's category is its newest categorized
    /// email's), so a tab's badge counts the mail the tab lists, whatever each older message was categorized as.
    public func fetchUnreadCounts(accountId: String, folderId: String) throws -> [AICategory?: Int] {
        try fetchUnreadCounts(accountId: accountId, folder: .path(folderId))
    }

    /// Unread messages of the whole account by category (each message once, however many folders hold it), as
    /// ``fetchUnreadCounts(accountId:folderId:)`` counts a folder's.
    public func fetchUnreadCounts(accountId: String) throws -> [AICategory?: Int] {
        try fetchUnreadCounts(accountId: accountId, folder: .wholeAccount)
    }

    /// Unread messages by category of a folder, the whole account or the badge's folders (`FolderPart`).
    package func fetchUnreadCounts(accountId: String, folder: FolderPart) throws -> [AICategory?: Int] {
        do {
            var out: [AICategory?: Int] = [nil: try views.unreadCount(account: accountId, folder: folder, category: "all")]
            for c in AICategory.allCases {
                let n = try views.threadUnreadCount(account: accountId, folder: folder, category: c)
                if n > 0 { out[c] = n }
            }
            return out
        } catch {
            throw ThreadListError.fetchFailed(underlying: error)
        }
    }

    /// The badge: unread mail in Inbox-role folders only, of one account or (nil) of every account but those removed
    /// now (`MailStore.removedAccounts()`: their mail still counts in their own badge, by name).
    public func fetchBadgeCount(accountId: String? = nil) throws -> Int {
        do {
            let views = try self.views
            if let accountId { return try views.unreadCount(account: accountId, folder: UnreadProjector.badgeScope, category: "all") }
            let removed = try removedSource()
            if removed.isEmpty { return try views.unreadCount(account: "*", folder: UnreadProjector.badgeScope, category: "all") }
            // The accounts' own badges, those removed left out (the `*` counter holds every account's).
            var sum = 0
            for a in try views.accounts() where !removed.contains(a) {
                sum += try views.unreadCount(account: a, folder: UnreadProjector.badgeScope, category: "all")
            }
            return sum
        } catch {
            throw ThreadListError.fetchFailed(underlying: error)
        }
    }

    /// The folders of an account in navigation order (Inbox, Starred, Sent, Drafts, Spam, Trash, Archive,
    /// then custom folders by path, ignoring case; each folder's subfolders right after it, with their depth),
    /// with their badges.
    /// An account with folders but no `\Flagged`-role one gets the virtual Starred folder after the Inbox (id `\Starred`,
    /// ``starredID``, named `Starred`, read by ``fetchThreads(accountId:folderId:category:cursor:pageSize:)``), an
    /// ordinary folder named `Starred` being listed as itself beside it; where a server folder's path is `\Starred`, the
    /// virtual one's id is `Starred` (not listed where folders take both).
    /// The Drafts badge counts the account's drafts: the local ones (each once, whether or not its server copy
    /// is there) and the server's other drafts; a draft handed to the outbox (queued, sending, failed, or sent and
    /// not yet filed) is not counted: the Outbox badge counts it.
    public func fetchFolders(accountId: String) throws -> [FolderSummary] {
        do {
            let tree = FetchThreadsUseCase.parentsOnly(try views.folderTree(account: accountId))
            let folders = tree.map(\.entry)
            var out = try tree.map { f, depth in
                let badge: Int? = switch f.role {
                case _ where !f.selectable: nil
                case .inbox, .junk: try views.unreadCount(account: accountId, folder: f.path, category: "all")
                case .drafts: try draftsBadge(accountId: accountId, folder: f.path)
                default: nil
                }
                return FolderSummary(id: f.path, accountId: accountId, name: f.displayName, role: f.role, badge: badge,
                                     depth: depth, selectable: f.selectable)
            }
            if !folders.isEmpty, !folders.contains(where: { $0.role == .flagged }), let id = FetchThreadsUseCase.starredFolderID(in: folders) {
                // After the Inbox and its subfolders.
                let at = out.firstIndex { $0.role != .inbox && $0.depth == 0 } ?? out.count
                out.insert(FolderSummary(id: id, accountId: accountId, name: FetchThreadsUseCase.starredName,
                                         role: .flagged, badge: nil, isVirtual: true), at: at)
            }
            return out
        } catch {
            throw ThreadListError.fetchFailed(underlying: error)
        }
    }

    /// `tree` (an account's folders in list order, each with its depth) without the names that hold no mail
    /// (`FolderEntry.selectable` false) with no folder that does below them: such a name stays only as the parent of its
    /// subfolders. One pass, each entry marked at most once: a folder's subfolders follow it at a greater depth.
    static func parentsOnly(_ tree: [(entry: FolderEntry, depth: Int)]) -> [(entry: FolderEntry, depth: Int)] {
        guard tree.contains(where: { !$0.entry.selectable }) else { return tree }
        var keep = tree.map(\.entry.selectable)
        var ancestors: [Int] = []  // the entries above the current one, nearest last
        for (i, row) in tree.enumerated() {
            while let last = ancestors.last, tree[last].depth >= row.depth { ancestors.removeLast() }
            if row.entry.selectable {
                // Each name above it stays, as its parent (those above one kept were kept with it).
                for a in ancestors.reversed() {
                    if keep[a] { break }
                    keep[a] = true
                }
            }
            ancestors.append(i)
        }
        return tree.indices.filter { keep[$0] }.map { tree[$0] }
    }

    /// The Drafts badge: the account's drafts (each once, its server copy not counted again) and the other
    /// messages of the server's Drafts folder (drafts written elsewhere). A draft the outbox has (queued, sending,
    /// failed, or sent and not yet filed in Sent) is no draft for the badge (spec AC-U-05: drafts for Drafts,
    /// queued + failed for the Outbox); its server copy, if sync recorded one, is still ours and not counted.
    func draftsBadge(accountId: String, folder: String) throws -> Int {
        let onServer = try views.unreadCount(account: accountId, folder: folder, category: UnreadProjector.totalCategory)
        let ours = try views.ownDraftCopies(account: accountId, folder: folder)
        let drafts = try views.drafts(account: accountId).filter { d in
            (try views.outboxItem(draftID: d.latest.draftID)?.state ?? .draft) == .draft
        }
        return drafts.count + max(0, onServer - ours)
    }

    /// The outbox (queued, sending, failed) of an account, newest first, and its badge (queued + failed).
    public func fetchOutboxEmails(accountId: String) throws -> (emails: [OutboxEmail], badge: Int) {
        do {
            let now = Timestamp.now
            return (try views.outbox(account: accountId).map { OutboxEmail($0, now: now) }, try views.outboxCount(account: accountId))
        } catch {
            throw ThreadListError.fetchFailed(underlying: error)
        }
    }
}
