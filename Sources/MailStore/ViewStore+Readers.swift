import LMDB
import EventModel
import Projections
import Views

// The library's conveniences over the projector readers, each one short read transaction (the `Views` module
// itself knows no view's tables or keys). Several reads that must agree go through one
// `read { snapshot in SomeReader(snapshot)... }`, which gives them one consistent snapshot.
extension ViewStore {
    /// One page of a thread listing: the folder of path `folder` (see `ThreadsReader.page`).
    public func threadPage(scope: String, folder: String, category: AICategory?, after: (Timestamp, String)?,
                           limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        try threadPage(scope: scope, folder: .path(folder), category: category, after: after, limit: limit)
    }

    /// One page of a thread listing: a folder, or the virtual Starred folder (see `ThreadsReader.page`).
    package func threadPage(scope: String, folder: FolderPart, category: AICategory?, after: (Timestamp, String)?,
                            limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        try read { try ThreadsReader($0).page(scope: scope, folder: folder, category: category, after: after, limit: limit) }
    }

    /// One page over several accounts' folders (`folders`: account and folder path each), merged newest first as one
    /// listing orders its threads (date descending, then thread id), after `after`, read in one transaction (one
    /// consistent state of the views). Reads at most `limit` + 1 rows of each folder. A thread in two of the folders
    /// (two Inbox-role folders of one account) is listed once: each folder's rows are distinct threads, so `limit`
    /// distinct rows still come before any row a folder's page left out.
    public func threadPage(folders: [(account: String, folder: String)], category: AICategory?, after: (Timestamp, String)?,
                           limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        try threadPage(folders: folders.map { ($0.account, FolderPart.path($0.folder)) }, category: category, after: after, limit: limit)
    }

    /// One page over several accounts' folders, a virtual Starred folder among them too (`FolderPart`): as
    /// `threadPage(folders:category:after:limit:)` with paths.
    package func threadPage(folders: [(account: String, folder: FolderPart)], category: AICategory?, after: (Timestamp, String)?,
                            limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        try read { snapshot in
            let reader = ThreadsReader(snapshot)
            var rows: [ThreadRow] = []
            var hasMore = false
            var seen = Set<String>()
            for f in folders {
                let page = try reader.page(scope: f.account, folder: f.folder, category: category, after: after, limit: limit)
                rows += page.threads.filter { seen.insert($0.id).inserted }
                hasMore = hasMore || page.hasMore
            }
            rows.sort { $0.latestDate != $1.latestDate ? $0.latestDate > $1.latestDate : Key($0.id).bytes.lexicographicallyPrecedes(Key($1.id).bytes) }
            if rows.count > limit {
                rows.removeLast(rows.count - limit)
                hasMore = true
            }
            return (rows, hasMore)
        }
    }

    /// Those of `addresses` (lowercased) that sent mail in a Sent-role folder of `account`: the user's own addresses
    /// (see `ContactsReader.sentAs`).
    public func sentAs(account: String, among addresses: [String]) throws -> Set<String> {
        try read { try ContactsReader($0).sentAs(account: account, among: addresses) }
    }

    /// A thread by id.
    public func thread(id: String) throws -> ThreadRow? { try read { try ThreadsReader($0).thread(id: id) } }

    /// The emails of a thread as the threads view has them.
    public func threadEmails(id: String) throws -> [(id: String, email: EmailRecord)] {
        try read { try ThreadsReader($0).emails(thread: id) }
    }

    /// The copies of each thread of `ids` with what an action needs of them (in order; empty for a thread that does
    /// not exist), read in one transaction (one consistent state of the views), without decoding the rest of each record.
    package func threadCopyStates(ids: [String]) throws -> [[(id: String, state: EmailCopyState)]] {
        try read { snapshot in
            let reader = ThreadsReader(snapshot)
            return try ids.map { try reader.copyStates(thread: $0) }
        }
    }

    /// What an action needs of each copy of `ids` (`EmailCopyState`; nil for one the threads view does not have),
    /// `chunk` copies per read transaction (an undo of 1,000 threads reads ~3,000, each in a read of its own and
    /// decoded whole before): an action recorded before the action bounds, or read from a damaged log, may name
    /// any number, so each read stays short and the mapped pages are released between two.
    package func emailCopyStates(ids: [String], chunk: Int = 1_024) throws -> [EmailCopyState?] {
        var states: [EmailCopyState?] = []
        states.reserveCapacity(ids.count)
        var start = 0
        while start < ids.count {
            let part = ids[start..<min(ids.count, start + max(1, chunk))]
            states += try read { snapshot in
                let reader = ThreadsReader(snapshot)
                return try part.map { try reader.copyState(email: $0) }
            }
            start += part.count
            if start < ids.count { environment.releaseResidentPages(over: Environment.residentFileBudget) }
        }
        return states
    }

    /// One email copy as the threads view has it.
    public func emailRecord(id: String) throws -> EmailRecord? { try read { try ThreadsReader($0).email(id: id) } }

    /// The thread a message key of `account` is linked to now (`ThreadsReader.thread(linking:account:)`).
    package func thread(linking key: String, account: String) throws -> String? {
        try read { try ThreadsReader($0).thread(linking: key, account: account) }
    }

    /// An unread counter of the folder of path `folder` (see `UnreadReader.count`).
    public func unreadCount(account: String, folder: String, category: String) throws -> Int {
        try unreadCount(account: account, folder: .path(folder), category: category)
    }

    /// An unread counter of a folder, the whole account or the badge (see `UnreadReader.count`).
    package func unreadCount(account: String, folder: FolderPart, category: String) throws -> Int {
        try read { try UnreadReader($0).count(account: account, folder: folder, category: category) }
    }

    /// Unread messages of the threads of `category` in the folder of path `folder` (see `ThreadsReader.unreadCount`): a
    /// category tab's badge.
    public func threadUnreadCount(account: String, folder: String, category: AICategory) throws -> Int {
        try threadUnreadCount(account: account, folder: .path(folder), category: category)
    }

    /// Unread messages of the threads of `category` in a folder, the whole account or the badge (`FolderPart`).
    package func threadUnreadCount(account: String, folder: FolderPart, category: AICategory) throws -> Int {
        try read { try ThreadsReader($0).unreadCount(scope: account, folder: folder, category: category) }
    }

    /// The folders of `account`, in the folder list's order.
    public func folders(account: String) throws -> [FolderEntry] { try read { try FoldersReader($0).folders(account: account) } }

    /// The same, each folder with its depth (0 at the top; a folder's subfolders follow it one deeper).
    public func folderTree(account: String) throws -> [(entry: FolderEntry, depth: Int)] {
        try read { try FoldersReader($0).tree(account: account) }
    }

    /// The accounts that have folders.
    public func accounts() throws -> [String] { try read { try FoldersReader($0).accounts() } }

    /// The Inbox-role folders of every account with folders but those of `removed` (account and path each; an account
    /// with no folder of that role its `INBOX`, as the views count it until its role is known), read in one transaction:
    /// what the unified inbox merges when it leaves accounts out.
    public func inboxFolders(leavingOut removed: Set<String>) throws -> [(account: String, folder: String)] {
        try read { snapshot in
            let reader = FoldersReader(snapshot)
            var out: [(account: String, folder: String)] = []
            for a in try reader.accounts() where !removed.contains(a) {
                let all = try reader.folders(account: a)
                let inboxes = all.filter { $0.role == .inbox }
                if !inboxes.isEmpty {
                    out += inboxes.map { (a, $0.path) }
                } else if let inbox = all.first(where: { $0.path.uppercased() == "INBOX" }) {
                    out.append((a, inbox.path))
                }
            }
            return out
        }
    }

    /// The outbox of `account` (queued, sending, failed), newest first.
    public func outbox(account: String) throws -> [OutboxItem] { try read { try OutboxReader($0).items(account: account) } }

    /// `account`'s pause for its server (`OutboxPause`: its most recent send attempt was not served), or nil; it may
    /// be over already (`until` past).
    public func outboxPause(account: String) throws -> OutboxPause? { try read { try OutboxReader($0).pause(account: account) } }

    /// The queued + failed count of `account` (the Outbox badge).
    public func outboxCount(account: String) throws -> Int { try read { try OutboxReader($0).count(account: account) } }

    /// A draft's place in the outbox, or nil.
    public func outboxItem(draftID: String) throws -> OutboxItem? { try read { try OutboxReader($0).item(draftID: draftID) } }

    /// The copies of a message (emails and folders) in `account`.
    public func copies(account: String, messageID: String) throws -> [DedupCopy] {
        try read { try DedupReader($0).copies(account: account, messageID: messageID) }
    }

    /// Every message of `account` with more than one copy.
    public func duplicates(account: String) throws -> [(String, [DedupCopy])] { try read { try DedupReader($0).duplicates(account: account) } }

    /// Calls `body` with each message of `account` that has more than one copy, in the view's key order, reading
    /// `visits` messages per read transaction and releasing the views' mapped pages past the budget between two:
    /// memory holds one such stretch's duplicates, whatever the account's size.
    public func forEachDuplicate(account: String, visits: Int = 4_096, _ body: (String, [DedupCopy]) throws -> Void) throws {
        var after: [UInt8]?
        repeat {
            let page = try read { try DedupReader($0).duplicates(account: account, after: after, visits: max(1, visits)) }
            for (messageID, copies) in page.found { try body(messageID, copies) }
            after = page.next
            environment.releaseResidentPages(over: Environment.residentFileBudget)
        } while after != nil
    }

    /// At most `limit` of `account`'s messages with more than one copy, after `after` (a page's `next`; nil:
    /// from the first), read `visits` messages per read transaction; `next` is nil when none follow.
    public func duplicatePage(account: String, after: [UInt8]?, limit: Int, visits: Int = 4_096) throws
        -> (found: [(String, [DedupCopy])], next: [UInt8]?) {
        var found: [(String, [DedupCopy])] = []
        var from = after
        repeat {
            let page = try read {
                try DedupReader($0).duplicates(account: account, after: from, visits: max(1, visits), limit: limit - found.count)
            }
            found += page.found
            from = page.next
            environment.releaseResidentPages(over: Environment.residentFileBudget)
        } while from != nil && found.count < limit
        return (found, from)
    }

    /// A page of `account`'s contacts, most frequent first (then by address): at most `limit` of those ranked
    /// after `after` (the count and address of a previous page's last; nil: from the first), with how many
    /// the account has and whether more follow. Every contact is visited, `visits` per read transaction, and
    /// at most twice `limit` are held (the best so far, cut back to `limit` whenever that fills).
    public func contactsPage(account: String, after: (count: UInt64, address: String)?, limit: Int,
                             visits: Int = 4_096) throws -> (contacts: [Contact], total: Int, more: Bool) {
        let limit = max(1, limit)
        func first(_ a: Contact, _ b: Contact) -> Bool { a.count != b.count ? a.count > b.count : a.address < b.address }
        var best: [Contact] = []
        var total = 0, ranked = 0
        var from: [UInt8]?
        repeat {
            from = try read {
                try ContactsReader($0).forEach(account: account, after: from, visits: max(1, visits)) { c in
                    total += 1
                    if let after, !(c.count < after.count || (c.count == after.count && c.address > after.address)) { return }
                    ranked += 1
                    best.append(c)
                    if best.count >= 2 * limit {
                        best.sort(by: first)
                        best.removeLast(best.count - limit)
                    }
                }
            }
            environment.releaseResidentPages(over: Environment.residentFileBudget)
        } while from != nil
        best.sort(by: first)
        if best.count > limit { best.removeLast(best.count - limit) }
        return (best, total, ranked > limit)
    }

    /// True when a notification was delivered for `emailID` (and not yet evicted).
    public func wasNotified(emailID: String) throws -> Bool { try read { try DedupReader($0).wasNotified(emailID: emailID) } }

    /// Every account, by name.
    public func accountList() throws -> [AccountRecord] { try read { try AccountsReader($0).all() } }

    /// The account named `name`, or nil.
    public func account(named name: String) throws -> AccountRecord? { try read { try AccountsReader($0).account(named: name) } }

    /// The discovery cached for `domain` (lowercased), or nil.
    public func discovery(domain: String) throws -> DiscoveryRecord? { try read { try AccountsReader($0).discovery(domain: domain) } }

    /// The last sync checkpoint of a folder, or nil when it was never synced.
    public func syncState(account: String, folder: String) throws -> FolderSyncState? {
        try read { try SyncStateReader($0).folder(account: account, folder: folder) }
    }

    /// How many times a folder was recorded removed: its generation (``SyncEngine/location(validity:uid:generation:)``).
    public func folderGeneration(account: String, folder: String) throws -> Int {
        try read { try SyncStateReader($0).generation(account: account, folder: folder) }
    }

    /// How many server copies of a folder the log holds.
    public func syncedCount(account: String, folder: String) throws -> Int {
        try read { try SyncStateReader($0).count(account: account, folder: folder) }
    }

    /// The server copies of a folder the log holds, by UID.
    public func syncedCopies(account: String, folder: String) throws -> [UInt32: SyncedCopy] {
        try read { try SyncStateReader($0).copies(account: account, folder: folder) }
    }

    /// The server copy at `uid` in a folder, if the log holds one.
    package func syncedCopy(account: String, folder: String, uid: UInt32) throws -> SyncedCopy? {
        try read { try SyncStateReader($0).copy(account: account, folder: folder, uid: uid) }
    }

    /// The UIDs of a folder's server copies, ascending; nil when the folder holds more than `limit`.
    package func syncedUIDs(account: String, folder: String, limit: Int) throws -> [UInt32]? {
        try read { try SyncStateReader($0).uids(account: account, folder: folder, limit: limit) }
    }

    /// The server copy of an email, if the sync engine knows one.
    public func syncedCopy(account: String, emailID: String) throws -> (folder: String, copy: SyncedCopy)? {
        try read { try SyncStateReader($0).copy(account: account, emailID: emailID) }
    }

    /// An action and its outcome so far.
    public func action(id: String) throws -> ActionRecord? { try read { try ActionsReader($0).action(id: id) } }

    /// The actions of `account` not yet written back, oldest first.
    public func pendingActions(account: String) throws -> [ActionRecord] { try read { try ActionsReader($0).pending(account: account) } }

    /// The actions of `account` that failed or were refused and were not retried or undone, oldest first.
    public func failedActions(account: String) throws -> [ActionRecord] { try read { try ActionsReader($0).failed(account: account) } }

    /// The ids of the actions that touched a thread (or, with `email: true`, an email), oldest first.
    public func actionIDs(touching id: String, email: Bool = false) throws -> [String] {
        try read { try ActionsReader($0).actionIDs(touching: id, email: email) }
    }

    /// A draft at its latest version, or nil.
    public func draft(id: String) throws -> DraftRecord? { try read { try DraftsReader($0).draft(id: id) } }

    /// The drafts of `account`.
    public func drafts(account: String) throws -> [DraftRecord] { try read { try DraftsReader($0).drafts(account: account) } }

    /// A draft's copies in the server's Drafts folder and how putting them there went, or nil.
    public func draftServerState(account: String, draftID: String) throws -> DraftServerState? {
        try read { try DraftsReader($0).serverState(account: account, draftID: draftID) }
    }

    /// The server states of `account`'s drafts (those of sent or deleted drafts whose copies are still to go included).
    public func draftServerStates(account: String) throws -> [DraftServerState] {
        try read { try DraftsReader($0).serverStates(account: account) }
    }

    /// How many copies of our drafts sync recorded in `folder` of `account`.
    public func ownDraftCopies(account: String, folder: String) throws -> Int {
        try read { try DraftsReader($0).ownCopies(account: account, folder: folder) }
    }

    /// Contacts of `account` matching `prefix` (see `ContactsReader.complete`).
    public func completeContacts(account: String, prefix: String, limit: Int = 10, candidates: Int = 20_000) throws -> [Contact] {
        try read { try ContactsReader($0).complete(account: account, prefix: prefix, limit: limit, candidates: candidates) }
    }
}
