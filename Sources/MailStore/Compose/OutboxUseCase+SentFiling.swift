import EventLog
import EventModel
import Foundation
import IMAPProtocol
import MessageComposer
import SyncCore

/// Filing sent messages in the server's Sent folder, so that nothing sent is missing from it: the folders are
/// discovered when none are known yet (a send before the first sync), a failed APPEND is retried with backoff,
/// and a message that still could not be filed stays pending (its `MessageSent` without `DraftDeleted`) until a
/// later sync or `outbox send` files it.
extension OutboxUseCase {
    /// A sent message not yet filed in Sent.
    public struct UnfiledSent: Sendable, Equatable {
        public var draftID: String
        public var messageID: String

        public init(draftID: String, messageID: String) {
            self.draftID = draftID
            self.messageID = messageID
        }
    }

    /// The messages of `account` that were sent but are not yet filed in the server's Sent folder (drafts whose
    /// outbox state is `sent`: read from the small drafts and outbox views, not the log).
    public func unfiledSent(account: String) throws -> [UnfiledSent] {
        let views = try self.views
        return try views.drafts(account: account).compactMap { d in
            guard try views.outboxItem(draftID: d.latest.draftID)?.state == .sent,
                  let queued = try sentQueuing(d.latest.draftID) else { return nil }
            return UnfiledSent(draftID: d.latest.draftID, messageID: queued.messageID)
        }
    }

    /// Files every pending sent message of `account` (once each): the drafts filed, and how many are not and why.
    /// Nothing when another process is sending this account's mail (it holds the send lock, and may be filing the very
    /// message it just sent: two APPENDs would leave two copies in Sent); a later sync or `outbox send` files what is
    /// still pending. Without `discover` (a sync, which has just listed the folders) the folder list is never fetched
    /// for it, and when the folders known hold no Sent folder (``sentFilingBlocked(account:)``) nothing is tried: no
    /// connection, no LIST; the report says why.
    @discardableResult
    public func completeSentFilings(account: String, discover: Bool = true) throws -> SentFilingReport {
        do {
            return try withSendLock(account, wait: 0) { try completeSentFilingsLocked(account: account, discover: discover) }
        } catch AccountLockError.held {
            return SentFilingReport()
        }
    }

    private func completeSentFilingsLocked(account: String, discover: Bool) throws -> SentFilingReport {
        _ = try store.latestViews()
        var report = SentFilingReport()
        let items = try unfiledSent(account: account)
        guard !items.isEmpty else { return report }
        if !discover, let blocked = try sentFilingBlocked(account: account) {
            report.unfiled = items.count
            report.reason = blocked
            return report
        }
        for (n, item) in items.enumerated() {
            guard let d = try views.draft(id: item.draftID), let a = try views.account(named: account)?.settings,
                  let due = try sentQueuing(item.draftID)?.dueAt else { continue }
            let composed = try compose(d, due: due, messageID: item.messageID)
            // An earlier try may have filed it and lost only the server's answer: looked for first.
            if let why = fileInSent(composed, account: a, retries: 1, lookFirst: true, discover: discover) {
                report.reason = why
                // No Sent folder even after listing the folders again: the others are not tried (a LIST each).
                if try sentFilingBlocked(account: account) != nil {
                    report.unfiled += items.count - n
                    break
                }
                report.unfiled += 1
                continue
            }
            try append(.draftDeleted(DraftDeleted(draftID: item.draftID)), account, item.draftID, actor: .system)
            report.filed.append(item.draftID)
        }
        return report
    }

    /// Why `account`'s sent messages cannot be filed in its Sent folder, from what the views hold (nothing asked of the
    /// server): its provider needs them APPENDed there (``ProviderSemantics/requiresSentAppend``), its folders are known
    /// (a sync or a send listed them) and none has the Sent role. Nil otherwise (filing may work, or is not needed).
    public func sentFilingBlocked(account: String) throws -> String? {
        _ = try store.latestViews()
        guard let a = try views.account(named: account)?.settings,
              ProviderRegistry.provider(id: a.provider).requiresSentAppend else { return nil }
        let folders = try views.folders(account: account)
        guard !folders.isEmpty, !folders.contains(where: { $0.role == .sent }) else { return nil }
        return DraftError.noSentFolder(account).description
    }

    /// APPENDs the sent message (its filed copy: with its Bcc field) to Sent with \Seen where the provider does not file it itself, trying up to
    /// `retries` times (1 s, 2 s, 4 s apart). Returns nil when filed or not needed, else why it was not. A try after the
    /// first (and every try with `lookFirst`) first looks for the message's Message-ID in Sent: an APPEND whose answer was
    /// lost (a dropped connection, a timeout) may have filed it, and a second would leave two copies.
    /// Without `discover`, a folder list not known yet is not fetched for it (the message is not filed).
    func fileInSent(_ m: ComposedMessage, account a: AccountAdded, retries: Int, lookFirst: Bool = false, discover: Bool = true) -> String? {
        guard ProviderRegistry.provider(id: a.provider).requiresSentAppend else { return nil }
        var why = ""
        for attempt in 0..<max(1, min(retries, 5)) {
            if attempt > 0 { Thread.sleep(forTimeInterval: Double(1 << (attempt - 1))) }
            do {
                try appendToSent(m, account: a, lookFirst: lookFirst || attempt > 0, discover: discover)
                return nil
            } catch DraftError.noSentFolder(let name) {
                return DraftError.noSentFolder(name).description
            } catch {
                why = "\(error)"
            }
        }
        return why
    }

    /// One APPEND of `m`'s filed copy to the Sent folder (its header in seven bits unless the server accepts UTF-8:
    /// ``IMAPConnection/appendFiledCopy(_:to:flags:)``); the folder list is fetched (and recorded) first when the views know no Sent
    /// folder and `discover` (else ``DraftError/noSentFolder(_:)`` before connecting). With `lookFirst`, none when Sent
    /// holds a message of `messageID` already (`UID SEARCH HEADER Message-ID`, the folder examined).
    private func appendToSent(_ m: ComposedMessage, account a: AccountAdded, lookFirst: Bool, discover: Bool) throws {
        var path = try views.folders(account: a.name).first { $0.role == .sent }?.path
        guard path != nil || discover else { throw DraftError.noSentFolder(a.name) }
        let engine = try SyncEngine(store: store, account: a)
        defer { engine.disconnect() }
        let conn = try engine.connect()
        if path == nil {
            var report = SyncReport(account: a.name)
            path = try engine.discoverFolders(conn, report: &report).first { $0.role == .sent }?.path
        }
        guard let path else { throw DraftError.noSentFolder(a.name) }
        if lookFirst {
            _ = try conn.select(MailboxName(path), readOnly: true, condstore: false)
            if try !conn.uidSearch([.header("Message-ID", m.messageID)]).isEmpty { return }
        }
        _ = try conn.appendFiledCopy(m, to: MailboxName(path), flags: ["\\Seen"])
    }

    /// The queuing that was sent (the last `MessageQueued` before `MessageSent`), for composing the same bytes.
    func sentQueuing(_ draftID: String) throws -> MessageQueued? {
        var last: MessageQueued?
        var sent: MessageQueued?
        try store.log.scan(filter: ScanFilter(types: [.messageQueued, .messageSent], stream: .draft(draftID))) { ev in
            switch try ev.decode() {
            case .messageQueued(let p): last = p
            case .messageSent: sent = last
            default: break
            }
            return true
        }
        return sent
    }
}
