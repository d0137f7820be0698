import Foundation
import MailStore

/// One thread as a terminal line: marks, senders with a count, subject, snippet, relative time.
enum ThreadRow {
    /// "John, Sarah (3)": the most recent senders' first names, with the message count when above one;
    /// "Unknown" when the thread has no participants.
    static func senders(_ t: ThreadSummary) -> String {
        let names = t.participants.prefix(2).map { p -> String in
            if let n = p.name?.trimmingCharacters(in: .whitespaces), !n.isEmpty {
                if n.contains(",") { return n.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? n }
                return String(n.split(separator: " ").first ?? Substring(n))
            }
            return String(p.email.split(separator: "@").first ?? Substring(p.email))
        }
        let base = names.isEmpty ? "Unknown" : names.joined(separator: ", ")
        return t.messageCount > 1 ? "\(base) (\(t.messageCount))" : base
    }

    static func line(_ t: ThreadSummary, width: Int, now: Date = Date()) -> String {
        let marks = (t.unreadCount > 0 ? "●" : " ") + (t.isStarred ? "★" : " ") + (t.hasAttachments ? "📎" : "  ")
        let who = fit(senders(t), 24)
        let when = RelativeTime.format(t.latestDate, now: now)
        let whenCol = String(repeating: " ", count: max(0, 9 - when.count)) + when
        let fixed = 4 + 1 + 24 + 2 + 9 + 2
        let rest = max(20, width - fixed)
        let subject = t.subject.isEmpty ? "(no subject)" : t.subject
        let text = t.snippet.isEmpty ? subject : subject + " — " + t.snippet
        return "\(marks) \(who)  \(fit(text, rest))  \(whenCol)"
    }

    /// Pads or truncates to exactly `n` characters.
    static func fit(_ s: String, _ n: Int) -> String {
        let flat = s.replacingOccurrences(of: "\n", with: " ")
        if flat.count > n { return String(flat.prefix(max(0, n - 1))) + "…" }
        return flat + String(repeating: " ", count: n - flat.count)
    }
}
