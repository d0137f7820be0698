import Foundation
import MailStore

/// One thread as a terminal line: marks, senders with a count, subject, snippet, relative time.
enum ThreadRow {
    /// "John, Sarah (3)": the most recent senders' first names, with the message count when above one;
    /// "Unknown" when the thread has no participants.
    static func senders(_ t: ThreadSummary) -> String {
        let names = t.participants.prefix(2).map { p -> String in
            if let n = shownName(p.name) {
                if n.contains(",") { return n.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? n }
                return String(n.split(separator: " ").first ?? Substring(n))
            }
            return String(p.email.split(separator: "@").first ?? Substring(p.email))
        }
        let base = names.isEmpty ? "Unknown" : names.joined(separator: ", ")
        return t.messageCount > 1 ? "\(base) (\(t.messageCount))" : base
    }

    /// A participant's display name as a terminal shows it, or nil when nothing shows (no name, blanks, or only control
    /// characters and escape sequences): the caller shows the address instead, so a name made of an escape sequence
    /// cannot hide who wrote.
    static func shownName(_ name: String?) -> String? {
        guard let name else { return nil }
        let shown = TerminalSanitiser.line(name).trimmingCharacters(in: .whitespaces)
        return shown.isEmpty ? nil : shown
    }

    /// The thread's line, `width` columns wide, its time formatted by `times` (one for a whole listing).
    static func line(_ t: ThreadSummary, width: Int, times: RelativeTime = RelativeTime()) -> String {
        let marks = (t.unreadCount > 0 ? "●" : " ") + (t.isStarred ? "★" : " ") + (t.hasAttachments ? "📎" : "  ")
        let who = fit(senders(t), 24)
        let when = times.format(t.latestDate)
        let whenCol = String(repeating: " ", count: max(0, 9 - when.count)) + when
        let fixed = 4 + 1 + 24 + 2 + 9 + 2
        let rest = max(20, width - fixed)
        let subject = t.subject.isEmpty ? "(no subject)" : t.subject
        let text = t.snippet.isEmpty ? subject : subject + " — " + t.snippet
        return "\(marks) \(who)  \(fit(text, rest))  \(whenCol)"
    }

    /// Pads or truncates to exactly `n` terminal columns, measured by ``DisplayWidth`` (East Asian wide characters and
    /// emoji take two, combining marks none).
    static func fit(_ s: String, _ n: Int) -> String {
        let flat = TerminalSanitiser.line(s)
        let total = DisplayWidth.of(flat)
        if total <= n { return flat + String(repeating: " ", count: n - total) }
        var out = ""
        var used = 0
        for ch in flat {
            let w = DisplayWidth.of(ch)
            if used + w > n - 1 { break }
            out.append(ch)
            used += w
        }
        out += "…"
        used += 1
        return out + String(repeating: " ", count: max(0, n - used))
    }
}
