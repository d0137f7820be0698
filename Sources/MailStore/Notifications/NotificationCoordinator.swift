import EventLog
import EventModel
import Foundation
import MailParser
import Projections
import Views

/// The notifications use case, shaped like the spec's coordinator for an app that embeds the store:
/// preferences are events; `didSyncNewEmails` decides (with the pure `NotificationDecider`) and records
/// each decision as `NotificationDecided`; delivery and withdrawal are side effects the caller performs
/// and records (`recordDelivered`, `recordWithdrawn`), so a crash between deciding and posting loses
/// nothing (the decision stays pending) and a recorded delivery is never repeated.
public struct NotificationCoordinator {
    /// The store.
    public let store: MailStore

    /// The stream of the notification preferences.
    public static let settingsStream = StreamName(rawValue: "notifications/settings")
    /// The most decisions or pending items one call reads.
    public static let readLimit = 1_000

    /// A coordinator over `store`.
    public init(store: MailStore) { self.store = store }

    // MARK: Preferences

    /// The current preferences.
    public func settings() throws -> NotificationSettings { try store.views().notificationSettings() }

    /// Turns an account's notifications on or off.
    public func setAccount(_ account: String, enabled: Bool) throws {
        try record(enabled ? .accountEnabled : .accountDisabled, account: account)
    }

    /// Turns a category's notifications on or off (`name`: primary, social, promotions, updates, forums).
    public func setCategory(_ name: String, enabled: Bool) throws {
        guard let c = AICategory(name: name), c != .uncategorized else { throw NotificationError.unknownCategory(name) }
        try record(enabled ? .categoryOn : .categoryOff, value: c.description)
    }

    /// Sets quiet hours, or turns them off with nil.
    public func setQuietHours(_ quiet: QuietHours?) throws {
        if let quiet {
            try record(.quietHoursSet, quietStart: quiet.start, quietEnd: quiet.end)
        } else {
            try record(.quietHoursCleared)
        }
    }

    /// The most VIP senders (`vip add` past it is refused: `NotificationError.tooManyVIPs`).
    public static let maxVIPs = NotificationsProjector.maxVIPs
    /// The most muted threads (`mute` past it is refused: `NotificationError.tooManyMutedThreads`).
    public static let maxMutedThreads = NotificationsProjector.maxMutedThreads
    /// The most times a capped change (`addVIP`, `mute`) reads the preferences again after another process changed them
    /// first (then `NotificationError.settingsBusy`).
    public static let maxCappedAttempts = 64

    /// Adds a VIP sender (stored lowercased; a VIP bypasses every filter) and returns the address kept. With `maxVIPs`
    /// VIPs already (and this one not among them) it is refused, `NotificationError.tooManyVIPs`, nothing recorded.
    @discardableResult
    public func addVIP(_ address: String) throws -> String {
        let a = try NotificationCoordinator.vip(address)
        try recordCapped(.vipAdded, value: a) { s, _ in
            s.vips.contains(a) || s.vips.count < NotificationCoordinator.maxVIPs ? nil : .tooManyVIPs(cap: NotificationCoordinator.maxVIPs)
        }
        return a
    }

    /// How many VIP adds and mutes were left out at their caps (recorded past them by another build, or racing past
    /// the check) since the last reset: the first ones recorded are kept.
    public func leftOut() throws -> (vips: UInt64, mutedThreads: UInt64) { try store.views().notificationsLeftOut() }

    /// Removes a VIP sender.
    public func removeVIP(_ address: String) throws { try record(.vipRemoved, value: try NotificationCoordinator.vip(address)) }

    /// Mutes a thread (its showing notifications are owed a withdrawal). A thread the views do not know is
    /// `ThreadListError.threadNotFound`: a mistyped id is an error, not a mute of nothing (a watch would drop it at
    /// its start anyway, spec E-21).
    ///
    /// With `maxMutedThreads` muted already (and this one not among them) it is refused, `NotificationError.tooManyMutedThreads`,
    /// nothing recorded.
    public func mute(thread: String) throws {
        let id = try NotificationCoordinator.thread(thread)
        try recordCapped(.threadMuted, value: id) { s, views in
            guard try views.thread(id: id) != nil else { throw ThreadListError.threadNotFound(id: id) }
            let cap = NotificationCoordinator.maxMutedThreads
            return s.mutedThreads.contains(id) || s.mutedThreads.count < cap ? nil : .tooManyMutedThreads(cap: cap)
        }
    }

    /// Records `change` if `refusal` finds nothing against it in the preferences as they are, appended only if no other
    /// change came between (optimistic concurrency on the settings stream, up to `maxCappedAttempts` reads): eight
    /// processes adding VIPs at once never record one past the cap.
    func recordCapped(_ change: NotificationPreference, value: String,
                      refusal: (NotificationSettings, ViewStore) throws -> NotificationError?) throws {
        let done = try store.retryingOnConflict(on: NotificationCoordinator.settingsStream, attempts: NotificationCoordinator.maxCappedAttempts) { expected, views in
            if let refused = try refusal(try views.notificationSettings(), views) { throw refused }
            try record(change, value: value, expected: expected)
            return true
        }
        guard done != nil else { throw NotificationError.settingsBusy }
    }

    /// Unmutes a thread, and every muted thread gone into it by a merge (each counts it as muted: `mutedNow`), whose
    /// mute a watch's start would otherwise carry back to it.
    public func unmute(thread: String) throws {
        let id = try NotificationCoordinator.thread(thread)
        let views = try store.views()
        let merged = try settings().mutedThreads.filter { t in
            try t != id && mutedNow([t], views: views).contains(id)
        }
        for t in merged.sorted() { try record(.threadUnmuted, value: t) }
        try record(.threadUnmuted, value: id)
    }

    /// Every preference back to the defaults.
    public func reset() throws { try record(.reset) }

    /// The address a VIP is kept by, lowercased: `address` itself, or the one address of "Name <a@b.c>" as a From line
    /// or a draft's `--to` writes it; anything else (no @, several addresses, a malformed one) is refused.
    public static func vipAddress(_ address: String) throws -> String { try vip(address) }

    /// ``vipAddress(_:)``'s work, for the coordinator's own callers.
    static func vip(_ address: String) throws -> String {
        var text = address.trimmingCharacters(in: .whitespaces)
        if text.utf8.contains(UInt8(ascii: "<")), text.utf8.count <= 1_024 {
            let parsed = MailAddress.parseList(text)
            if parsed.count == 1, parsed[0].raw == nil { text = parsed[0].email }
        }
        let a = text.lowercased()
        let parts = a.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, a.utf8.count <= 254,
              !a.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
            throw NotificationError.invalidAddress(address)
        }
        return a
    }

    static func thread(_ id: String) throws -> String {
        guard !id.isEmpty, id.utf8.count <= 998, !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw NotificationError.invalidThread(id)
        }
        return id
    }

    func record(_ change: NotificationPreference, account: String = "", value: String = "", quietStart: UInt32 = 0, quietEnd: UInt32 = 0,
                expected: ExpectedVersion = .any) throws {
        let p = NotificationPreferenceChanged(change: change, value: value, quietStart: quietStart, quietEnd: quietEnd)
        _ = try store.commit([NewEvent(event: .notificationPreferenceChanged(p), account: account,
                                       stream: NotificationCoordinator.settingsStream, actor: .user, expectedVersion: expected)])
    }

    // MARK: Decisions

    /// The most recent decisions, newest first: of `account` when given (an account removed now too, by name), else of
    /// every account but those removed now (`MailStore.removedAccounts()`).
    public func recent(account: String? = nil, limit: Int = 100) throws -> [NotificationRecord] {
        let views = try store.views()
        let removed = account == nil ? try store.removedAccounts() : []
        return try views.recentNotifications(account: account, leavingOut: removed,
                                             limit: min(max(limit, 0), NotificationCoordinator.readLimit))
    }

    /// The decision for an email, or nil.
    public func decision(emailID: String) throws -> NotificationRecord? { try store.views().notificationRecord(emailID: emailID) }

    /// Decides the notifications for the new emails of one sync of `account` and records each decision
    /// (`NotificationDecided`, on the email's stream). Never twice for one email, and never a second banner for
    /// one message: an email is skipped when it was decided before, when a copy of its message (here or gone
    /// since, across folders and restarts) was posted, or when it is outside the Inbox and a copy was decided.
    /// A copy that reaches the Inbox later (moved there on another device, "not spam") of a message decided
    /// but never posted (it was in the Archive: `not-in-inbox`) is decided, by every rule: recency goes by its
    /// arrival, which a move keeps, so an old message moved to the Inbox is `too-old`.
    @discardableResult
    public func didSyncNewEmails(account: String, emailIDs: [String], sync: NotificationSync) throws -> [NotificationDecided] {
        let candidates = try self.candidates(account: account, emailIDs: emailIDs)
        let views = try store.views()
        let byEmail = Dictionary(candidates.map { ($0.candidate.emailID, $0) }, uniquingKeysWith: { a, _ in a })
        var settings = try views.notificationSettings()
        settings.mutedThreads = try mutedNow(settings.mutedThreads, views: views)
        let earlier = try views.recentlyPostedNotifications(since: Timestamp(microseconds: sync.time.microseconds - NotificationDecider.lookBackSeconds * 1_000_000))
        let decisions = NotificationDecider.decide(candidates.map(\.candidate), settings: settings, sync: sync, recentlyPosted: earlier) { c in
            guard let found = byEmail[c.emailID] else { return true }
            // An unreadable record counts as decided: better no banner than a second one.
            return (try? NotificationCoordinator.decidedBefore(found, account: account, views: views)) ?? true
        }
        guard !decisions.isEmpty else { return [] }
        _ = try store.commit(decisions.map {
            NewEvent(event: .notificationDecided($0), account: account, stream: .email($0.emailID), occurredAt: sync.time, actor: .system)
        })
        return decisions
    }

    /// `muted` with the thread that absorbed each muted thread merged into another since it was muted (spec AC-N-08: a
    /// muted conversation stays muted; the reply that merged it had been posted). A thread's id is its first email's
    /// (with `-SEQUENCE` after it where that id was taken), whose record names the thread it is in now; where that copy
    /// is gone (archived, expunged), its receipt in the log names its message, whose links the merge moved to the thread
    /// that absorbed it. A thread gone otherwise (its mail expunged) adds nothing. Bound: per muted thread gone, two
    /// look-ups in the views and one receipt read (the first event of the copy's stream).
    func mutedNow(_ muted: Set<String>, views: ViewStore) throws -> Set<String> {
        var out = muted
        for id in muted where try views.thread(id: id) == nil {
            let founder = String(id.prefix { $0 != "-" })
            var survivor = try views.emailRecord(id: founder)?.threadID
            if survivor == nil || survivor == id {
                survivor = nil
                try store.log.scan(filter: ScanFilter(types: [.emailReceived], stream: .email(founder))) { ev in
                    if case .emailReceived(let p) = try ev.decode() {
                        survivor = try views.thread(linking: p.messageKey, account: ev.envelope.account)
                    }
                    return false
                }
            }
            if let survivor, survivor != id, try views.thread(id: survivor) != nil { out.insert(survivor) }
        }
        return out
    }

    /// Whether `found` is not to be decided: the email was decided; a copy of its message was posted; or it is
    /// outside the Inbox and a copy was decided (a copy moved to the Archive is not decided again).
    static func decidedBefore(_ found: Candidate, account: String, views: ViewStore) throws -> Bool {
        if try views.notificationRecord(emailID: found.candidate.emailID) != nil { return true }
        var earlier = try found.copies.compactMap { try views.notificationRecord(emailID: $0) }
        // The message's standing decision, kept when its copies are gone (moved away and back).
        if let standing = try views.notificationRecord(account: account, messageKey: found.candidate.messageKey) { earlier.append(standing) }
        if earlier.contains(where: { $0.decision.outcome == .posted }) { return true }
        return !earlier.isEmpty && !found.inInbox
    }

    /// A new email as the decision sees it, with every other copy of its message and whether it is itself in an
    /// Inbox-role folder.
    struct Candidate {
        var candidate: NotificationCandidate
        var copies: [String]
        var inInbox: Bool
    }

    /// The candidates for `emailIDs` (unknown ids are skipped), each with every copy of its message and its
    /// arrival time (`arrivals`).
    func candidates(account: String, emailIDs: [String]) throws -> [Candidate] {
        let views = try store.views()
        let roles = Dictionary(try views.folders(account: account).map { ($0.path, $0.role) }, uniquingKeysWith: { a, _ in a })
        func role(_ path: String) -> FolderRole {
            let r = roles[path] ?? .custom
            return r == .custom && path.uppercased() == "INBOX" ? .inbox : r
        }
        var found: [(id: String, email: EmailRecord)] = []
        for id in emailIDs.prefix(NotificationCoordinator.maxEmailsPerDecision) {
            if let e = try views.emailRecord(id: id), e.account == account { found.append((id, e)) }
        }
        let arrivals = try self.arrivals(of: found)
        // Only mail in the Inbox can post: the senders looked up are those.
        let own = try ownAddresses(account: account, senders: found.filter { role($0.email.folder) == .inbox }.compactMap { $0.email.sender?.email })
        var out: [Candidate] = []
        // Each thread's emails read once for all of its new emails (10,000 new messages of one long thread read it once,
        // not 10,000 times); held for the call: at most the threads of `maxEmailsPerDecision` emails.
        var threadEmails: [String: [(id: String, email: EmailRecord)]] = [:]
        for (id, e) in found {
            if threadEmails[e.threadID] == nil { threadEmails[e.threadID] = try views.threadEmails(id: e.threadID) }
            let copies = (threadEmails[e.threadID] ?? []).filter { $0.email.messageKey == e.messageKey }
            let c = NotificationCandidate(emailID: id, messageKey: e.messageKey, threadID: e.threadID, account: account,
                                          fromName: e.sender?.name, fromAddress: e.sender?.email ?? "", subject: e.subject,
                                          snippet: e.snippet, dateReceived: arrivals[id] ?? e.date,
                                          folderRoles: Set(copies.map { role($0.email.folder) } + [role(e.folder)]), category: e.category,
                                          fromUser: own.contains((e.sender?.email ?? "").lowercased()))
            out.append(Candidate(candidate: c, copies: copies.map(\.id).filter { $0 != id }, inInbox: role(e.folder) == .inbox))
        }
        return out
    }

    /// Those of `senders` (lowercased) that are the user's: the account's own address, and the aliases among them
    /// (`ViewStore.sentAs`: at least half of an address's mail in a Sent-role folder of `account`; at most 1,024 distinct
    /// senders are looked up, the rest taken as others). Another configured account's address counts only as an alias
    /// does: it may be a shared mailbox (team@) whose mail to the user is news.
    func ownAddresses(account: String, senders: [String]) throws -> Set<String> {
        let mine = (try store.account(named: account)?.email.lowercased()).map { Set([$0]) } ?? []
        let others = Array(Set(senders.map { $0.lowercased() }.filter { !$0.isEmpty && !mine.contains($0) })).sorted()
        return try mine.union(others.isEmpty ? [] : store.views().sentAs(account: account, among: others))
    }

    /// When each email of `emails` arrived, which recency and the per-sync cap go by: the server's arrival time
    /// recorded with it (`EmailReceived.receivedAt`, IMAP INTERNALDATE), else (an import, or an event written before
    /// schema version 2) its date (the Date header, or the fallback the parser chose); either no later than when the
    /// log recorded the copy, so a server clock or a Date header in the future does not make mail newer than mail
    /// that really just arrived. An email whose event cannot be read is left out (its date is used).
    func arrivals(of emails: [(id: String, email: EmailRecord)]) throws -> [String: Timestamp] {
        let wanted = Dictionary(emails.map { ($0.email.sequence, $0.id) }, uniquingKeysWith: { a, _ in a })
        var out: [String: Timestamp] = [:]
        try store.log.events(at: emails.map(\.email.sequence)) { stored in
            if let id = wanted[stored.envelope.sequence], case .emailReceived(let p) = try? stored.decode(), p.emailID == id {
                out[id] = min(p.receivedAt ?? p.date, stored.envelope.recordedAt)
            }
            return true
        }
        return out
    }

    // MARK: Delivery

    /// Posted decisions not yet delivered, oldest first.
    public func pendingDeliveries(limit: Int = NotificationCoordinator.readLimit) throws -> [NotificationRecord] {
        try store.views().pendingNotificationDeliveries(limit: min(max(limit, 0), NotificationCoordinator.readLimit))
    }

    /// Withdrawals owed: a delivered notification whose thread was read, archived, deleted or muted.
    public func pendingWithdrawals(limit: Int = NotificationCoordinator.readLimit) throws -> [(threadID: String, withdrawal: PendingWithdrawal)] {
        try store.views().pendingNotificationWithdrawals(limit: min(max(limit, 0), NotificationCoordinator.readLimit))
    }

    /// Records that the notification of `record` was shown (`NotificationDelivered`).
    public func recordDelivered(_ record: NotificationRecord) throws {
        _ = try store.commit([NewEvent(event: .notificationDelivered(NotificationDelivered(emailID: record.decision.emailID)),
                                       account: record.account, stream: .email(record.decision.emailID), actor: .system)])
    }

    /// Records that the notifications of `emailIDs` in `threadID` were withdrawn.
    public func recordWithdrawn(threadID: String, emailIDs: [String], reason: String, account: String = "") throws {
        guard !emailIDs.isEmpty else { return }
        _ = try store.commit([NewEvent(event: .notificationWithdrawn(NotificationWithdrawn(emailIDs: emailIDs, threadID: threadID, reason: reason)),
                                       account: account, stream: .thread(threadID), actor: .system)])
    }

    /// The app marked a thread read: its showing notifications are withdrawn (recorded); returns their emails.
    @discardableResult
    public func didMarkThreadRead(threadID: String) throws -> [String] { try withdrawShowing(threadID: threadID, reason: "read") }

    /// The app archived or deleted a thread: its showing notifications are withdrawn (recorded); returns their emails.
    @discardableResult
    public func didRemoveThread(threadID: String) throws -> [String] { try withdrawShowing(threadID: threadID, reason: "removed") }

    func withdrawShowing(threadID: String, reason: String) throws -> [String] {
        let showing = try store.views().showingNotifications(threadID: threadID)
        try recordWithdrawn(threadID: threadID, emailIDs: showing, reason: reason)
        return showing
    }
}
