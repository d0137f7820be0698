import EventLog
import EventModel
import Foundation
import Projections
import Views

/// The views' contents, read through the store (the one place the library reads `ViewStore`, so the
/// views' storage can change without touching callers).
extension MailStore {
    /// The configured accounts with their settings (never a secret).
    public func accounts() throws -> [AccountAdded] {
        try views().accountList().map(\.settings)
    }

    /// The configured account `name`, or nil.
    public func account(named name: String) throws -> AccountAdded? {
        try views().account(named: name)?.settings
    }

    /// Where email copy `id` is now and its flags now, as the views hold them after every action and sync since it
    /// arrived (`EmailReceived` says where and how it came); nil when the views no longer hold it (expunged).
    public func currentState(ofEmail id: String) throws -> (folder: String, flags: [String])? {
        try views().emailCopyStates(ids: [id]).first.flatMap { $0 }.map { ($0.folder, $0.flags) }
    }

    /// Every account the views know mail of (configured or imported), sorted.
    public func accountNames() throws -> [String] {
        try views().accounts()
    }

    /// The folders of an account as the folders view holds them.
    public func folders(account: String) throws -> [FolderEntry] {
        try views().folders(account: account)
    }

    /// The sync checkpoint of a folder, or nil when never synced.
    public func syncState(account: String, folder: String) throws -> FolderSyncState? {
        try views().syncState(account: account, folder: folder)
    }

    /// How many server copies of a folder the log holds.
    public func syncedCount(account: String, folder: String) throws -> Int {
        try views().syncedCount(account: account, folder: folder)
    }

    /// The messages of an account with more than one copy: (Message-ID, copies).
    public func duplicates(account: String) throws -> [(String, [DedupCopy])] {
        try views().duplicates(account: account)
    }

    /// Calls `body` with each message of `account` that has more than one copy (Message-ID and copies), reading
    /// the view a stretch at a time: memory bounded whatever the account's size (`duplicates` holds them all).
    public func forEachDuplicate(account: String, _ body: (String, [DedupCopy]) throws -> Void) throws {
        try views().forEachDuplicate(account: account, body)
    }

    /// A page of `account`'s contacts, most frequent first (`ViewStore.contactsPage`).
    public func contactsPage(account: String, after: (count: UInt64, address: String)?, limit: Int) throws
        -> (contacts: [Contact], total: Int, more: Bool) {
        try views().contactsPage(account: account, after: after, limit: limit)
    }

    /// The account of a dedup view key (`duplicatePage`'s `next`), or nil when `key` is not one.
    public static func dedupAccount(ofKey key: [UInt8]) -> String? {
        guard let end = key.firstIndex(of: 0), end > 0, end + 1 < key.count else { return nil }
        var r = KeyReader(key)
        return r.string()
    }

    /// A page of `account`'s messages with more than one copy (`ViewStore.duplicatePage`).
    public func duplicatePage(account: String, after: [UInt8]?, limit: Int) throws -> (found: [(String, [DedupCopy])], next: [UInt8]?) {
        try views().duplicatePage(account: account, after: after, limit: limit)
    }

    /// An action by id, or nil.
    public func action(id: String) throws -> ActionRecord? {
        try views().action(id: id)
    }

    /// The actions of an account still to be written back to the server.
    public func pendingActions(account: String) throws -> [ActionRecord] {
        try views().pendingActions(account: account)
    }

    /// The actions of an account the server refused or that failed.
    public func failedActions(account: String) throws -> [ActionRecord] {
        try views().failedActions(account: account)
    }

    /// A draft by id, or nil.
    public func draft(id: String) throws -> DraftRecord? {
        try views().draft(id: id)
    }

    /// The drafts of an account.
    public func drafts(account: String) throws -> [DraftRecord] {
        try views().drafts(account: account)
    }

    /// A draft's copies in the server's Drafts folder and how putting them there went (nil: nothing tried yet).
    public func draftServerState(account: String, draftID: String) throws -> DraftServerState? {
        try views().draftServerState(account: account, draftID: draftID)
    }

    /// Where a draft is on its way out (queued, sending, sent, failed), or nil when it was never queued.
    public func outboxItem(draftID: String) throws -> OutboxItem? {
        try views().outboxItem(draftID: draftID)
    }

    /// `account`'s pause for its server while it lasts (its last send attempt was not served, that message's retry
    /// time not come: `outbox send` and the watch try none of its messages before `until`), else nil.
    public func outboxPause(account: String) throws -> OutboxPause? {
        try views().outboxPause(account: account).flatMap { RetryBackoff.hasCome($0.until) ? nil : $0 }
    }

    /// The most contacts `completeContacts` returns, whatever its `limit`.
    public static var maxContactCompletions: Int { ContactsReader.maxLimit }

    /// Contacts of an account whose address or name starts with `prefix` (all when empty), best first: at most
    /// `limit`, and at most `maxContactCompletions`. The user's own addresses (every configured account's, and every
    /// address with at least half of its mail in a Sent-role folder: an alias, `Contact.isUsersOwn`) come after everyone else: they are
    /// in every message's recipients or sender, so by frequency they would lead every completion they match ("t"
    /// offering the user before Tina); they stay offered, last, for mail to oneself.
    public func completeContacts(account: String, prefix: String, limit: Int = 10) throws -> [Contact] {
        let limit = min(max(0, limit), Self.maxContactCompletions)
        let own = Set(try accounts().map { $0.email.lowercased() }.filter { !$0.isEmpty })
        let views = try views()
        // Asked for `limit` (a completion of up to 16 reads one best list); again for as many more as own addresses
        // came in, while a full answer held some: usually not at all, at most `maxOwnRequeries` times (a Sent folder
        // of other people's mail, an imported list archive, can make thousands of addresses "own").
        // A longer answer may come from a scan bounded in entries where the first came from a best list: the answers
        // are merged by rank, so one never loses a contact an earlier one found.
        var asked = limit
        var found = try views.completeContacts(account: account, prefix: prefix, limit: asked)
        for _ in 0..<Self.maxOwnRequeries where found.count == asked && asked < Self.maxContactCompletions {
            let mine = found.filter { Self.isOwn($0, own) }.count
            guard mine > 0, limit + mine > asked else { break }
            asked = min(limit + mine, Self.maxContactCompletions)
            found = ContactsReader.merged(try views.completeContacts(account: account, prefix: prefix, limit: asked), found,
                                          limit: asked)
        }
        return Self.ownAddressesLast(found, own: own, limit: limit)
    }

    /// How many more times a completion is asked for, to fill in for the user's own addresses it held.
    static let maxOwnRequeries = 3

    /// Whether `c` is one of the user's addresses: a configured account's (`own`, lowercased), or one whose mail is
    /// mostly in Sent-role folders (`Contact.isUsersOwn`).
    static func isOwn(_ c: Contact, _ own: Set<String>) -> Bool { c.isUsersOwn || own.contains(c.address.lowercased()) }

    /// `found` (best first) with the user's own addresses (`isOwn`) moved after the others, in their order, at most
    /// `limit`.
    static func ownAddressesLast(_ found: [Contact], own: Set<String>, limit: Int) -> [Contact] {
        let isOwn = found.map { Self.isOwn($0, own) }
        let others = zip(found, isOwn).filter { !$0.1 }.map(\.0)
        let mine = zip(found, isOwn).filter { $0.1 }.map(\.0)
        return Array((others + mine).prefix(limit))
    }
}

extension MailStore {
    /// Every contact of an account, most frequent first (then by address).
    public func contacts(account: String) throws -> [Contact] {
        let out = try views().read { try ContactsReader($0).all(account: account) }
        return out.sorted { ($0.count, $1.address) > ($1.count, $0.address) }
    }
}
