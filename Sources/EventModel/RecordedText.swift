/// Text from outside that an event keeps, bounded: a server's reply or an error quoting one (a reason, a
/// response). A server may answer with up to a mebibyte of text (an IMAP line) or 64 KiB (an SMTP reply), and
/// a failure retried hourly records it each time: the log keeps at most ``maxBytes`` of it.
public enum RecordedText {
    /// The most UTF-8 bytes of one such text an event keeps (2 KiB: a reply's first lines and the addresses
    /// it names).
    public static let maxBytes = 2_048

    /// `text` when it fits `maxBytes`, else its first characters that fit with a note of how much was left out
    /// (cut between characters, never inside one).
    public static func bounded(_ text: String, maxBytes: Int = maxBytes) -> String {
        let count = text.utf8.count
        guard count > maxBytes else { return text }
        let note = " [... \(count) bytes in all]"
        var kept = 0
        var end = text.startIndex
        for c in text {
            let size = c.utf8.count
            guard kept + size + note.utf8.count <= maxBytes else { break }
            kept += size
            end = text.index(after: end)
        }
        return String(text[..<end]) + note
    }
}
