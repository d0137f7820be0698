import EventModel
import MailParser

/// The threads view: threading by Message-ID / In-Reply-To / References (notmuch's rules: messages
/// linked by any reference share a thread, missing parents are placeholders that still link, threads
/// merge when a later message links them, never by subject; Gmail's X-GM-THRID wins when present),
/// the thread rows, and the newest-first index the thread list pages through. An account without a
/// `\Flagged`-role folder gets a virtual Starred folder (``virtualStarred``): every thread with a flagged
/// copy is indexed under it once, with no server folder behind it.
package final class ThreadsProjector: Projector {
    package static let name = ViewName.threads
    /// 2: rows stored apart from membership (`threads.rows`). 3: user actions and compensations fold in.
    /// 4: bounded keys and values (`Key`, `ViewBounds`). 5: the virtual Starred folder (`starred` table, index
    /// keys); our drafts' server copies left out (`drafts` table). 6: a thread's subject keeps its leading `[tags]`
    /// (`BaseSubject`: `[EXTERNAL] Invoice`, where 5 showed `Invoice`). 7: unread counters by the thread's category
    /// (`counts`, each thread's share of them in `shares`): a category tab's badge counts what the tab lists.
    /// 8: a thread is bounded (`ThreadBound`); mail linked to a full one goes on in
    /// another (`overflow`). 9: a thread that took such mail and is merged away forwards it (`takers`).
    /// 10: an email's sender is `EmailAddress.sender(of:)` (the first `From` address with an `@`, a display name split
    /// at an unquoted comma put back together), where 9 took the first address (`Smith` of `Smith, John <j@x>`).
    /// 11: the virtual Starred folder's listing and the whole-account and badge counters under folder parts no path
    /// takes (`FolderPart`): a server folder named `\Starred`, `#account` or `#badge` was merged with them.
    package static let schemaVersion: UInt32 = 11
    /// What `apply` folds: the copy changes (`CopyChange.changes(of:)`) and its own cases.
    package static let handledEvents = EventTypeSet(CopyChange.eventTypes + [.folderDiscovered, .folderRemoved, .draftCopyChanged, .emailReceived, .flagsChanged, .emailCategorized, .emailExpunged])
    static let emailsTable = Table<EmailRecord>(.threads, "emails")
    static let threadsTable = Table<ThreadRecord>(.threads, "threads")
    static let rowsTable = Table<ThreadRow>(.threads, "rows")
    static let linksTable = Table<String>(.threads, "links")
    static let folderRolesTable = Table<FolderRole>(.threads, "folders")
    static let indexTable = Table<Present>(.threads, "index")
    static let starredTable = Table<String>(.threads, "starred")
    static let ownDraftsTable = Table<Present>(.threads, "drafts")
    static let countsTable = Table<Int>(.threads, "counts")
    static let sharesTable = Table<[CountedUnread]>(.threads, "shares")
    static let overflowTable = Table<String>(.threads, "overflow")
    static let takersTable = Table<Present>(.threads, "takers")
    /// The most `overflow` links followed from a full thread (each pointer is moved to where the message goes, so
    /// chains stay one or two long; a longer one ends in a new thread).
    static let maxOverflowHops = 16
    /// The index folder part of the virtual Starred folder (no path takes it: `FolderPart`).
    package static let virtualStarred = FolderPart.virtualStarred

    let emails: ViewTable<EmailRecord>
    let threads: ViewTable<ThreadRecord>
    let rows: ViewTable<ThreadRow>
    let links: ViewTable<String>
    let folderRoles: ViewTable<FolderRole>
    let index: ViewTable<Present>
    /// Key(account) -> the path of the account's `\Flagged`-role folder, when it has one (then no virtual Starred).
    let starred: ViewTable<String>
    /// Key(account, Message-ID) -> present: our drafts' server copies (`DraftCopyChanged`), which sync brings
    /// back into the Drafts folder and which are not threads of their own (the draft is shown once, locally).
    let ownDrafts: ViewTable<Present>
    /// Key(scope account, folder part (a path, or the whole account or the badge), the threads' category) -> unread
    /// messages of the threads of that category there (`countKey`); `*` with the badge over every account's Inbox-role
    /// folders.
    let counts: ViewTable<Int>
    /// Key(thread id) -> the counters the thread adds to and what it adds to each (so it can be taken back when it
    /// changes); none for a thread with no unread mail. Apart from the thread's record, which is large for a long
    /// thread: reading or unreading mail writes only this.
    let shares: ViewTable<[CountedUnread]>
    /// Key(full thread id) -> the thread that took the last message linked to it: mail linked to a thread at its
    /// bound (`ThreadRecord.hasRoom(_:)`) goes on there, so a long conversation continues in one thread past the bound
    /// instead of one new thread per reply.
    let overflow: ViewTable<String>
    /// Key(thread id) -> present: threads some full thread's `overflow` names (a merge of one leaves a forwarding
    /// `overflow` entry under its id, naming the thread that absorbed it).
    let takers: ViewTable<Present>

    /// Creates the projector over `store`.
    package init(context: FoldContext) {
        self.context = context
        emails = context.table(Self.emailsTable)
        threads = context.table(Self.threadsTable)
        rows = context.table(Self.rowsTable)
        links = context.table(Self.linksTable)
        folderRoles = context.table(Self.folderRolesTable)
        index = context.table(Self.indexTable)
        starred = context.table(Self.starredTable)
        ownDrafts = context.table(Self.ownDraftsTable)
        counts = context.table(Self.countsTable)
        shares = context.table(Self.sharesTable)
        overflow = context.table(Self.overflowTable)
        takers = context.table(Self.takersTable)
    }

    /// Threads whose membership or emails changed in this batch: their rows are recomputed once, at flush.
    private var dirty: Set<String> = []
    /// The folders' Inbox roles asked about in this batch.
    private var inboxMemo = InboxMemo()
    /// The tables' context: a big recompute writes it in parts.
    private let context: FoldContext
    /// Rows recomputed between two writes of the tables when a batch has many (a role change marks every
    /// thread of its folder): the records they read and write stay in the caches until written, ~1 KB a thread.
    /// Written in parts, the caches stay at ~8 MB; the folder's thread ids (tens of bytes each) are held at once.
    /// The projector must then fold on the writing thread (it does: only other views fold on a second one).
    package var recomputeChunk = 8_192

    /// How much mail a thread holds before mail linked to it goes on in another: `ThreadBound.standard` (tests fold
    /// with small ones).
    package var threadBound = ThreadBound.standard

    /// Changes of the unread counters in this batch (by counter key), added to the stored ones at flush.
    private var pendingCounts: [[UInt8]: Int] = [:]

    package func discardPending() {
        dirty.removeAll()
        inboxMemo.forget()
        pendingCounts.removeAll()
    }

    /// Recomputes the rows of the threads changed in this batch (once each).
    package func prepareFlush() throws {
        var done = 0
        for id in dirty.sorted() {
            guard var t = try threads.get(Key(id).bytes) else { continue }
            try recompute(&t)
            done += 1
            if done % recomputeChunk == 0 && context.writesInParts { try context.flush() }
        }
        dirty.removeAll()
        for (key, delta) in pendingCounts.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) where delta != 0 {
            let v = (try counts.get(key) ?? 0) + delta
            counts.set(key, v == 0 ? nil : v)
        }
        pendingCounts.removeAll(keepingCapacity: true)
    }

    /// Sets thread `id`'s share of the unread counters to `new`, taking its stored one back.
    private func share(_ id: String, _ new: [CountedUnread]) throws {
        let key = Key(id).bytes
        let old = try shares.get(key) ?? []
        guard old != new else { return }
        for c in old { pendingCounts[c.key, default: 0] -= c.count }
        for c in new { pendingCounts[c.key, default: 0] += c.count }
        shares.set(key, new.isEmpty ? nil : new)
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        if let changes = CopyChange.changes(of: decoded) {
            for c in changes {
                try updateEmail(c.emailID) { e in
                    if let f = c.folder { e.folder = f }
                    e.flags = ViewBounds.flags(c.applied(to: e.flags))
                }
            }
            return
        }
        switch decoded {
        case .folderDiscovered(let p):
            try changingRoles(account: account, folder: p.folder) {
                folderRoles.set(Key(account, p.folder).bytes, p.role)
                if p.role == .flagged {
                    starred.set(Key(account).bytes, p.folder)
                } else if try starred.get(Key(account).bytes) == p.folder {
                    starred.set(Key(account).bytes, nil)
                }
            }
        case .folderRemoved(let p):
            try changingRoles(account: account, folder: p.folder) {
                folderRoles.set(Key(account, p.folder).bytes, nil)
                if try starred.get(Key(account).bytes) == p.folder { starred.set(Key(account).bytes, nil) }
            }
        case .draftCopyChanged(let p):
            if p.change == .appending || p.change == .stored, !p.messageID.isEmpty {
                ownDrafts.set(Key(account, ViewBounds.id(p.messageID)).bytes, Present())
            }
        case .emailReceived(let p):
            if try ownDrafts.get(Key(account, ViewBounds.id(p.messageKey)).bytes) != nil { return }
            try received(p, account: account, sequence: event.pointee.envelope.sequence)
        case .flagsChanged(let p):
            try updateEmail(p.emailID) { $0.flags = ViewBounds.flags(p.flags) }
        case .emailCategorized(let p):
            try updateEmail(p.emailID) { $0.category = p.category }
        case .emailExpunged(let p):
            guard let e = try emails.get(Key(p.emailID).bytes), var t = try threads.get(Key(e.threadID).bytes) else { return }
            emails.set(Key(p.emailID).bytes, nil)
            t.emailIDs.removeAll { $0 == p.emailID }
            update(t)
        default:
            break
        }
    }

    /// Runs `change` (of `folder`'s role, or of the account's Starred folder) and marks the threads whose rows
    /// it moves: those with a copy in `folder` when it becomes or stops being an Inbox (their rows are listed
    /// under the unified Inbox or not), and the starred threads when the account gains or loses a Starred
    /// folder of its own (listed under the virtual one or not). A row is computed when its batch ends, with the
    /// roles known then: without this, a thread folded in a batch before its folder's role was learnt would
    /// keep a row that a rebuild, folding both in one batch, does not make. The threads are found in the
    /// stored index (those of this batch are marked already); a big folder whose role changes has every
    /// thread's row recomputed once, in that batch.
    private func changingRoles(account: String, folder: String, _ change: () throws -> Void) throws {
        let wasInbox = try folderRoles.isInbox(account: account, folder: folder)
        let hadStarred = try starred.get(Key(account).bytes) != nil
        try change()
        inboxMemo.forget()
        if try folderRoles.isInbox(account: account, folder: folder) != wasInbox {
            try markThreads(listedUnder: ThreadsProjector.indexPrefix(scope: account, folder: .path(folder), category: nil).bytes)
        }
        let hasStarred = try starred.get(Key(account).bytes) != nil
        if hasStarred && !hadStarred {
            // The starred threads leave the virtual folder: they are all listed there.
            try markThreads(listedUnder: ThreadsProjector.indexPrefix(scope: account, folder: ThreadsProjector.virtualStarred, category: nil).bytes)
        } else if hadStarred && !hasStarred {
            // They join it: found among all of the account's threads.
            try markThreads(listedUnder: Key(account).bytes, starredOnly: true)
        }
    }

    /// Marks dirty the threads of the stored index entries under `prefix` (`starredOnly`: those whose rows say
    /// starred, among the entries of the All listings: a pass over the account's index, reading rows without
    /// caching them, so its memory is that of the starred threads it marks).
    private func markThreads(listedUnder prefix: [UInt8], starredOnly: Bool = false) throws {
        try index.storedKeys(prefix: prefix) { key in
            var r = KeyReader(key)
            _ = r.string(); _ = r.string()
            let listing = r.string()
            _ = r.descending()
            let id = r.string()
            if !starredOnly {
                dirty.insert(id)
            } else if listing == "all", !dirty.contains(id), try rows.peek(Key(id).bytes)?.isStarred == true {
                dirty.insert(id)
            }
            return true
        }
    }

    private func updateEmail(_ id: String, _ change: (inout EmailRecord) -> Void) throws {
        var thread: String?
        try emails.modifyIfChanged(Key(id).bytes) { e in
            guard e != nil else { return false }
            change(&e!)
            thread = e!.threadID
            return true
        }
        if let thread { dirty.insert(thread) }
    }

    private func received(_ p: EmailReceived, account: String, sequence: UInt64) throws {
        let emailKey = Key(p.emailID).bytes
        let messageKey = ViewBounds.id(p.messageKey)
        if let existing = try emails.get(emailKey) {
            // The same copy seen again (a re-delivered fact): refresh its fields.
            var e = existing
            e.flags = ViewBounds.flags(p.flags)
            e.folder = p.folder
            emails.set(emailKey, e)
            dirty.insert(existing.threadID)
            return
        }
        let linkKeys: [String]
        if let thrid = p.gmailThreadID {
            linkKeys = ["gm:\(thrid)", messageKey]
        } else {
            linkKeys = ViewBounds.linkKeys(messageKey: messageKey, references: p.references, inReplyTo: p.inReplyTo)
        }
        // The threads these keys already belong to, oldest first. The message joins the oldest that has room and
        // absorbs the others while the result keeps room (`ThreadRecord.hasRoom(_:)`); a full thread keeps its mail and
        // keys, and its mail goes on in the thread that took the last message linked to it (`overflow`), or in a
        // new one.
        var linked: [String?] = []
        // Each thread's size only: holding a copy of its record would make the append below copy its lists.
        var found: [ThreadSize] = []
        for k in linkKeys {
            let tid = try links.get(Key(account, k).bytes)
            linked.append(tid)
            guard let tid, !found.contains(where: { $0.id == tid }) else { continue }
            if let t = try threads.get(Key(tid).bytes) { found.append(ThreadSize(t)) }
        }
        var open = found.filter { threadBound.hasRoom(emails: $0.emails, keyBytes: $0.keyBytes) }
        var full = found.filter { !threadBound.hasRoom(emails: $0.emails, keyBytes: $0.keyBytes) }.map(\.id)
        for f in full {
            if let taker = try overflowTaker(of: f, visited: &full), !open.contains(where: { $0.id == taker.id }) {
                open.append(taker)
            }
        }
        open.sort { ($0.first, $0.id) < ($1.first, $1.id) }
        let winner: String
        if let oldest = open.first {
            winner = oldest.id
            var emailCount = oldest.emails, keyBytes = oldest.keyBytes
            for t in open.dropFirst() where threadBound.hasRoom(emails: emailCount + t.emails, keyBytes: keyBytes + t.keyBytes) {
                emailCount += t.emails
                keyBytes += t.keyBytes
                try merge(t.id, into: winner)
            }
        } else {
            // The email's id, unless a thread has it (a full one its earlier copy started): then one made unique by
            // the event's sequence. The forwarding entry an earlier thread of that id left when merged goes (its
            // `takers` entry went with the merge).
            var id = p.emailID
            var n = 0
            while try threads.get(Key(id).bytes) != nil {
                n += 1
                id = n == 1 ? "\(p.emailID)-\(sequence)" : "\(p.emailID)-\(sequence)-\(n)"
            }
            if try overflow.get(Key(id).bytes) != nil { overflow.set(Key(id).bytes, nil) }
            winner = id
            threads.set(Key(winner).bytes, ThreadRecord(id: winner, account: account, firstSequence: sequence))
        }
        for f in full {
            if try overflow.get(Key(f).bytes) != winner { overflow.set(Key(f).bytes, winner) }
        }
        if !full.isEmpty, try takers.get(Key(winner).bytes) == nil { takers.set(Key(winner).bytes, Present()) }
        try threads.modify(Key(winner).bytes) { t in
            guard t != nil else { return }
            // A key is a member of the thread exactly when its link names the thread: the keys no thread has yet
            // (or a thread no longer stored) join it; those of merged threads were moved by the merge, those of
            // full or unmerged threads stay theirs.
            for (i, k) in linkKeys.enumerated() where !found.contains(where: { $0.id == linked[i] }) {
                links.set(Key(account, k).bytes, winner)
                t!.addMemberKey(k)
            }
            t!.emailIDs.append(p.emailID)
        }
        emails.set(emailKey, EmailRecord(
            account: account, folder: p.folder, messageKey: messageKey, threadID: winner, date: p.date,
            sender: EmailAddress.sender(of: p.from).map(ViewBounds.address), subject: ViewBounds.text(p.subject),
            snippet: ViewBounds.text(p.snippet), flags: ViewBounds.flags(p.flags),
            hasAttachments: p.attachments.contains { !$0.isInline }, category: .uncategorized, sequence: sequence))
        dirty.insert(winner)
    }

    private func merge(_ loserID: String, into winnerID: String) throws {
        guard let loser = try threads.get(Key(loserID).bytes) else { return }
        try threads.modify(Key(winnerID).bytes) { w in
            guard w != nil else { return }
            for k in loser.memberKeys {
                links.set(Key(loser.account, k).bytes, winnerID)
                w!.addMemberKey(k)
            }
            w!.emailIDs += loser.emailIDs
        }
        for id in loser.emailIDs {
            try emails.modify(Key(id).bytes) { e in e?.threadID = winnerID }
        }
        for k in loser.indexKeys { index.set(k, nil) }
        try share(loserID, [])
        threads.set(Key(loserID).bytes, nil)
        rows.set(Key(loserID).bytes, nil)
        // A thread that took a full thread's mail forwards it to the one absorbing it (full threads name it); any
        // other's entry (its own taker, from when it was full) goes with it.
        if try takers.get(Key(loserID).bytes) != nil {
            overflow.set(Key(loserID).bytes, winnerID)
            takers.set(Key(loserID).bytes, nil)
            if try takers.get(Key(winnerID).bytes) == nil { takers.set(Key(winnerID).bytes, Present()) }
        } else if try overflow.get(Key(loserID).bytes) != nil {
            overflow.set(Key(loserID).bytes, nil)
        }
        dirty.remove(loserID)
    }

    /// The thread with room that takes the mail of full thread `id`: its `overflow`, followed through threads that
    /// are full in turn (at most ``maxOverflowHops``, each appended to `visited` so its pointer moves to where the
    /// message goes) and the forwarding entries of threads merged away; nil when the chain ends at a full thread.
    private func overflowTaker(of id: String, visited: inout [String]) throws -> ThreadSize? {
        var current = id
        for _ in 0..<Self.maxOverflowHops {
            guard let next = try overflow.get(Key(current).bytes) else { return nil }
            // Merged away: its entry forwards to the thread that absorbed it.
            guard let t = try threads.get(Key(next).bytes) else {
                current = next
                continue
            }
            if t.hasRoom(threadBound) { return ThreadSize(t) }
            if visited.contains(next) { return nil }
            visited.append(next)
            current = next
        }
        return nil
    }

    /// Stores a thread's membership and marks its row for recomputation at flush.
    private func update(_ t: ThreadRecord) {
        threads.set(Key(t.id).bytes, t)
        dirty.insert(t.id)
    }

    /// Recomputes a thread's row from its emails and re-indexes it.
    private func recompute(_ thread: inout ThreadRecord) throws {
        let key = Key(thread.id).bytes
        var members: [EmailRecord] = []
        for id in thread.emailIDs { if let e = try emails.get(Key(id).bytes) { members.append(e) } }
        if members.isEmpty {
            for k in thread.indexKeys { index.set(k, nil) }
            try share(thread.id, [])
            // An emptied thread leaves no row; its links stay so a later message rejoins the same id.
            thread.emailIDs = []
            thread.indexKeys = []
            threads.set(key, thread)
            rows.set(key, nil)
            return
        }
        var t = ThreadRow(id: thread.id, account: thread.account)
        members.sort { ($0.date, $0.sequence) < ($1.date, $1.sequence) }
        let oldestSubject = members.first { !$0.subject.isEmpty }?.subject ?? ""
        t.subject = BaseSubject.of(oldestSubject)
        let latest = members[members.count - 1]
        t.snippet = latest.snippet
        t.latestDate = latest.date
        var senders: [EmailAddress] = []
        // Senders seen, by folded address: a list while short (most threads), a set beyond.
        var seenList: [String] = [], seenSet = Set<String>()
        for e in members.reversed() {
            guard let s = e.sender else { continue }
            let folded = s.email.folded
            if seenList.count < 32 {
                if seenList.contains(folded) { continue }
                seenList.append(folded)
                if seenList.count == 32 { seenSet = Set(seenList) }
            } else if !seenSet.insert(folded).inserted {
                continue
            }
            senders.append(s)
        }
        t.participants = senders
        // The distinct message keys in date order, and whether any copy of each is read: searched in the list while
        // the thread is short (most are), through a dictionary of positions beyond.
        var order: [String] = [], read: [Bool] = []
        var position: [String: Int] = [:]
        let searchesList = members.count <= 16
        for e in members {
            if let i = searchesList ? order.firstIndex(of: e.messageKey) : position[e.messageKey] {
                if e.isSeen { read[i] = true }
            } else {
                if !searchesList { position[e.messageKey] = order.count }
                order.append(e.messageKey)
                read.append(e.isSeen)
            }
        }
        t.messageCount = order.count
        t.unreadCount = read.count(where: { !$0 })
        t.messageIDs = order.filter { !$0.hasPrefix("<") }
        t.isStarred = members.contains { $0.isFlagged }
        t.hasAttachments = members.contains { $0.hasAttachments }
        t.category = members.last { $0.category != .uncategorized }?.category ?? .uncategorized
        // The distinct folders, sorted: a thread's copies lie in a few (a list), a set once there are many.
        var folders: [String] = []
        var folderSet: Set<String>?
        for e in members {
            if folderSet != nil {
                if folderSet!.insert(e.folder).inserted { folders.append(e.folder) }
            } else if !folders.contains(e.folder) {
                folders.append(e.folder)
                if folders.count == 16 { folderSet = Set(folders) }
            }
        }
        t.folders = folders.sorted()
        var keys: [[UInt8]] = []
        // A starred thread of an account without its own Starred folder is listed under the virtual one, once.
        let ownStarred = t.isStarred ? try starred.get(Key(t.account).bytes) : nil
        let virtual = t.isStarred && ownStarred == nil ? [ThreadsProjector.virtualStarred] : []
        for folder in t.folders.map(FolderPart.path) + virtual {
            var inbox = false
            if case .path(let path) = folder { inbox = try inboxMemo.isInbox(account: t.account, folder: path, in: folderRoles) }
            for scope in inbox ? [t.account, "*"] : [t.account] {
                let f = scope == "*" ? .path("INBOX") : folder
                keys.append(ThreadsProjector.indexKey(scope: scope, folder: f, category: nil, date: t.latestDate, thread: t.id))
                if ThreadsProjector.tabCategories.contains(t.category) {
                    keys.append(ThreadsProjector.indexKey(scope: scope, folder: f, category: t.category, date: t.latestDate, thread: t.id))
                }
            }
        }
        // The thread's share of the unread counters of its category: per folder, the messages with a copy there and
        // none of them read there (as the unread view counts a folder's unread mail), also under the badge for an
        // Inbox-role folder; over the account, the row's unread count.
        var counted: [CountedUnread] = []
        func add(_ scope: String, _ folder: FolderPart, _ n: Int) {
            if n > 0 { counted.append(CountedUnread(key: ThreadsProjector.countKey(scope: scope, folder: folder, category: t.category), count: n)) }
        }
        var inInbox = 0
        for (folder, n) in ThreadsProjector.unreadByFolder(members) {
            add(t.account, .path(folder), n)
            if try inboxMemo.isInbox(account: t.account, folder: folder, in: folderRoles) { inInbox += n }
        }
        add(t.account, UnreadProjector.badgeScope, inInbox)
        add("*", UnreadProjector.badgeScope, inInbox)
        add(t.account, UnreadProjector.accountScope, t.unreadCount)
        try share(thread.id, counted)
        // Only the index entries that changed are written (a flag or a new unread count leaves them as they were),
        // and the thread's record only when they did: every write is a B-tree page copied and a version in the
        // views' history.
        if keys != thread.indexKeys {
            let (removed, added) = ThreadsProjector.difference(from: thread.indexKeys, to: keys)
            for k in removed { index.set(k, nil) }
            for k in added { index.set(k, Present()) }
            thread.indexKeys = keys
            threads.set(key, thread)
        }
        rows.set(key, t)
    }

    /// A copy's folder and message: a message's copies in one folder count once there.
    private struct FolderMessage: Hashable {
        let folder: String, message: String
    }

    /// Per folder (sorted by path), the messages of `members` with a copy there and none of them read there; folders
    /// with none left out. Compared in a list while the thread is short (most are), through a dictionary beyond.
    static func unreadByFolder(_ members: [EmailRecord]) -> [(folder: String, count: Int)] {
        var unread: [String: Int] = [:]
        if members.count <= 16 {
            var seen: [(copy: FolderMessage, seen: Bool)] = []
            for e in members {
                let c = FolderMessage(folder: e.folder, message: e.messageKey)
                if let i = seen.firstIndex(where: { $0.copy == c }) { seen[i].seen = seen[i].seen || e.isSeen } else { seen.append((c, e.isSeen)) }
            }
            for s in seen where !s.seen { unread[s.copy.folder, default: 0] += 1 }
        } else {
            var seen: [FolderMessage: Bool] = [:]
            for e in members {
                let c = FolderMessage(folder: e.folder, message: e.messageKey)
                if e.isSeen { seen[c] = true } else if seen[c] == nil { seen[c] = false }
            }
            for (c, s) in seen where !s { unread[c.folder, default: 0] += 1 }
        }
        return unread.map { ($0.key, $0.value) }.sorted { $0.folder < $1.folder }
    }

    /// The key of an unread counter of the threads view: scope (an account, or `*` with the badge), folder part (a
    /// path, the whole account or the badge: `UnreadProjector`'s scopes), the threads' category.
    package static func countKey(scope: String, folder: FolderPart, category: AICategory) -> [UInt8] {
        var k = Key(scope)
        k.folder(folder)
        k.string(category.description)
        return k.bytes
    }

    /// The keys of `old` not in `new`, and of `new` not in `old`, each in its list's order. A thread's keys are a
    /// few (two per folder and scope at most): compared pairwise up to 16 of them, through a set beyond.
    package static func difference(from old: [[UInt8]], to new: [[UInt8]]) -> (removed: [[UInt8]], added: [[UInt8]]) {
        if old.count <= 16 && new.count <= 16 {
            return (old.filter { !new.contains($0) }, new.filter { !old.contains($0) })
        }
        let oldSet = Set(old), newSet = Set(new)
        return (old.filter { !newSet.contains($0) }, new.filter { !oldSet.contains($0) })
    }

    /// Categories with their own tab; forums and uncategorized threads appear under All only.
    package static let tabCategories: Set<AICategory> = [.primary, .social, .promotions, .updates]

    /// The index key of a thread row: scope (an account, or `*` for the unified inbox), folder, category
    /// (`all` or a tab category), newest date first, thread id.
    package static func indexKey(scope: String, folder: FolderPart, category: AICategory?, date: Timestamp, thread: String) -> [UInt8] {
        var k = indexPrefix(scope: scope, folder: folder, category: category)
        k.descending(date.microseconds)
        k.string(thread)
        return k.bytes
    }

    /// The prefix of a listing's index keys.
    package static func indexPrefix(scope: String, folder: FolderPart, category: AICategory?) -> Key {
        var k = Key(scope)
        k.folder(folder)
        k.string(category.map(\.description) ?? "all")
        return k
    }
}
