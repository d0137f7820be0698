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

    /// Pads or truncates to exactly `n` terminal columns (East Asian wide characters take two).
    static func fit(_ s: String, _ n: Int) -> String {
        let flat = TerminalSanitiser.line(s)
        let total = flat.reduce(0) { $0 + width($1) }
        if total <= n { return flat + String(repeating: " ", count: n - total) }
        var out = ""
        var used = 0
        for ch in flat {
            let w = width(ch)
            if used + w > n - 1 { break }
            out.append(ch)
            used += w
        }
        out += "…"
        used += 1
        return out + String(repeating: " ", count: max(0, n - used))
    }

    /// Columns a character takes on a terminal: 2 for East Asian wide and fullwidth forms and emoji, else 1.
    static func width(_ ch: Character) -> Int {
        guard let v = ch.unicodeScalars.first?.value else { return 1 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
