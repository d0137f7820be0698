import Foundation
import DomainNames

extension DomainEvent {
    /// A one-line, human-readable summary of the payload (for `mailstore log` and `history`): a sender's address as
    /// people read it (`EmailAddress.readable`: `bücher.example`, not `xn--bcher-kva.example`).
    package var summary: String {
        func q(_ s: String, _ max: Int = 60) -> String {
            let flat = s.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
            return "\"" + (flat.count > max ? String(flat.prefix(max - 1)) + "…" : flat) + "\""
        }
        func who(_ a: [EmailAddress]) -> String {
            guard let f = EmailAddress.sender(of: a) else { return "(no sender)" }
            return f.readable.displayed
        }
        func flags(_ f: [String]) -> String { f.isEmpty ? "(none)" : f.joined(separator: " ") }
        func emails(_ n: Int) -> String { n == 1 ? "1 email" : "\(n) emails" }
        func ids(_ e: [String]) -> String { e.count == 1 ? e[0] : emails(e.count) }
        switch self {
        case .storeInitialized(let p): return "store format \(p.formatVersion) created by \(p.createdBy)"
        case .accountAdded(let p):
            return "\(p.name) " + (p.displayName.map { "\(q($0)) " } ?? "") + "<\(p.email)> \(p.imapHost):\(p.imapPort) \(p.imapSecurity) auth=\(p.auth)"
        case .accountRemoved(let p): return p.name
        case .accountSettingsDiscovered(let p):
            func server(_ kind: String, _ host: String?, _ port: UInt32?, _ security: String?, _ source: String?) -> String? {
                guard let host else { return nil }
                return "\(kind) \(security ?? "?")://\(host):\(port ?? 0) from \(source ?? "?")"
            }
            let found = [server("IMAP", p.imapHost, p.imapPort, p.imapSecurity, p.imapSource),
                         server("SMTP", p.smtpHost, p.smtpPort, p.smtpSecurity, p.smtpSource)].compactMap { $0 }
            return "\(p.name) \(p.domain): " + (found.isEmpty ? "nothing found" : found.joined(separator: ", "))
                + (p.cachedFrom.map { " (cached, looked up at #\($0))" } ?? "")
                + (p.manual.isEmpty ? "" : "; by hand: " + p.manual.joined(separator: " "))
        case .folderDiscovered(let p): return "\(p.folder) role=\(p.role)" + (p.uidValidity.map { " uidvalidity=\($0)" } ?? "")
        case .folderRemoved(let p): return p.folder
        case .uidValidityChanged(let p): return "\(p.folder) \(p.oldValue) -> \(p.newValue)"
        case .folderSyncCheckpointed(let p):
            return "\(p.folder) uidvalidity=\(p.uidValidity) highest-uid=\(p.highestUID)" + (p.highestModSeq.map { " modseq=\($0)" } ?? "")
        case .emailReceived(let p): return "\(q(p.subject)) from \(who(p.from)) in \(p.folder)"
        case .flagsChanged(let p):
            var parts: [String] = []
            if !p.added.isEmpty { parts.append("+" + p.added.joined(separator: " +")) }
            if !p.removed.isEmpty { parts.append("-" + p.removed.joined(separator: " -")) }
            return "\(p.emailID) \(parts.isEmpty ? "flags " + flags(p.flags) : parts.joined(separator: " "))"
        case .emailExpunged(let p): return "\(p.emailID) from \(p.folder)"
        case .emailCategorized(let p):
            if p.isUserCorrection { return "\(p.emailID) -> \(p.category) (the user's correction)" }
            let by = p.classifier.isEmpty ? "" : " by \(p.classifier)" + (p.classifierVersion > 0 ? "/\(p.classifierVersion)" : "")
            return "\(p.emailID) -> \(p.category)\(by)" + (p.rule.isEmpty ? "" : " (rule \(q(p.rule, 100)))")
        case .senderCategoryLearned(let p):
            return "mail from \(IDNA.unicodeEmail(p.sender)) -> \(p.category) (learned from \(p.emailID))"
        case .threadArchived(let p), .threadDeleted(let p), .threadMarkedRead(let p), .threadMarkedUnread(let p),
             .threadStarred(let p), .threadUnstarred(let p), .threadMoved(let p):
            let n = p.threadIDs.count == 1 ? "thread \(p.threadIDs[0])" : "\(p.threadIDs.count) threads"
            return "\(n), \(emails(p.targets.count))" + (p.destination.map { " -> \($0)" } ?? "")
        case .actionApplied(let p): return "action \(p.actionID) applied to \(ids(p.emailIDs))"
        case .actionFailed(let p): return "action \(p.actionID) attempt \(p.attempt): \(p.reason)"
        case .actionRejected(let p): return "action \(p.actionID): \(p.reason)"
        case .flagRejected(let p): return "action \(p.actionID): \(p.flag) reverted on \(ids(p.emailIDs)): \(p.message)"
        case .actionReverted(let p): return "action \(p.actionID): \(emails(p.targets.count)) restored (\(p.reason))"
        case .actionUndone(let p): return "action \(p.actionID) undone" + (p.serverInverseQueued ? ", inverse queued" : "")
        case .draftSaved(let p): return "draft \(p.draftID) v\(p.draftVersion) \(q(p.subject))"
        case .draftDeleted(let p): return "draft \(p.draftID)"
        case .messageQueued(let p): return "draft \(p.draftID) due \(p.dueAt)"
        case .sendStarted(let p): return "draft \(p.draftID) attempt \(p.attempt)"
        case .messageSent(let p): return "draft \(p.draftID) as <\(p.messageID)>"
        case .sendFailed(let p): return "draft \(p.draftID) \(p.permanent ? "permanently" : "temporarily"): \(p.reason)"
        case .sendUndone(let p): return "draft \(p.draftID)"
        case .sendCancelled(let p): return "draft \(p.draftID)"
        case .messagePartlySent(let p):
            return "draft \(p.draftID) as <\(p.messageID)> to \(p.recipients.count) recipient\(p.recipients.count == 1 ? "" : "s")"
        case .draftCopyChanged(let p):
            let copy = p.messageID.isEmpty ? "" : " <\(p.messageID)>" + (p.uid == 0 ? "" : " uid \(p.uid)")
            let folder = p.folder.isEmpty ? "" : " in \(q(p.folder))"
            let why = p.reason.isEmpty ? "" : ": \(p.reason)"
            return "draft \(p.draftID) v\(p.draftVersion) \(p.change)\(copy)\(folder)\(why)"
        case .notificationDelivered(let p): return p.emailID
        case .notificationPreferenceChanged(let p):
            if p.change == .quietHoursSet { return "quiet hours \(p.quietStart / 60):\(p.quietStart % 60)-\(p.quietEnd / 60):\(p.quietEnd % 60)" }
            return p.value.isEmpty ? p.change.description : "\(p.change) \(p.value)"
        case .notificationDecided(let p): return "\(p.emailID) \(p.outcome) (\(p.reason)) \(q(p.subtitle))"
        case .notificationWithdrawn(let p): return "thread \(p.threadID), \(ids(p.emailIDs)) (\(p.reason))"
        case .unknown(let t, let v, let payload): return "\(t.name) v\(v), \(payload.count) payload bytes"
        }
    }
}
