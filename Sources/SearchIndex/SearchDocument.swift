import DomainNames
import EventModel
import Foundation
import MailParser
import Projections

/// What the index keeps of one email copy: the text columns (full-text) and the filter columns.
/// Pure: built from the `EmailReceived` payload and the raw message bytes (nil when the blob is missing:
/// then only the headers from the event are indexed).
struct SearchDocument: Equatable {
    // Text columns (FTS5), in `SearchSchema.textColumns` order. `cc` holds Cc and Bcc. Each in the indexed form
    // (`IndexedText`: composed, Greek without its marks), made once here; `subject` as the mail has it (the `docs`
    // row shows it), `textColumns` forms it.
    var from: String
    var to: String
    var cc: String
    var subject: String
    var body: String
    var attachment: String
    var mimetype: String
    // Filter columns.
    var emailID: String
    var account: String
    var folder: String
    var messageID: String?
    var flags: Int64
    var date: Int64
    var size: Int64
    var participants: String
    /// The digest of the text columns for `doc_text` (`SearchTextDigest`), when the thread that built the
    /// document computed it; nil otherwise (the writer computes it then).
    var textDigest: [UInt8]?

    /// The text columns, in `SearchSchema.textColumns` order, as FTS5 is given them (`IndexedText`).
    var textColumns: [String] { [from, to, cc, IndexedText.form(subject), body, attachment, mimetype] }

    /// The bytes of UTF-8 the document's strings hold (text and filter columns, the digest): what
    /// `SearchBatchReader` counts it for while its batch is in flight.
    var heldBytes: Int {
        var n = from.utf8.count + to.utf8.count + cc.utf8.count + subject.utf8.count + body.utf8.count
        n += attachment.utf8.count + mimetype.utf8.count + emailID.utf8.count + account.utf8.count + folder.utf8.count
        return n + (messageID?.utf8.count ?? 0) + participants.utf8.count + (textDigest?.count ?? 0)
    }

    /// The most body text indexed per message (bytes of UTF-8, cut at a Unicode scalar's end): longer bodies are cut.
    /// Memory: a document holds at most this much body text (1 MiB), and a part's text is decoded from a window of
    /// its encoded body sized for what is left of it (`MIMEPart.decodedText(in:limit:widening:)`, `TextWindow`:
    /// ~1.6 MiB, widened to ~4.1 MiB when that gave less than the room left; ~20 MiB transient at the very worst),
    /// never from the whole part (a 60 MB body was decoded whole, twice copied, to keep 1 MiB). Its indexed form
    /// (`IndexedText`, composed) is at most 3 times as long (canonical composition's bound), ASCII text the same.
    static let maxBodyBytes = 1 << 20
    /// The most HTML decoded per `text/html` part (bytes of UTF-8) for its text: a longer part's text comes from its
    /// first 4 MiB (decoded from the first ~6 MiB of the part, not widened: `TextWindow`). Every HTML part of ordinary
    /// mail is shorter (a newsletter: ~100 KB). Memory: the window's ~6 MiB decoded (~12 MiB through a copy, ~30 MiB
    /// at the very worst), its 4 MiB kept while its text (at most `maxBodyBytes`) is made.
    static let maxHTMLBytes = 4 << 20
    /// The most MIME parts walked per message.
    static let maxParts = 2_000

    init(_ p: EmailReceived, account: String, raw: [UInt8]?) {
        from = IndexedText.form(Self.addresses(p.from))
        to = IndexedText.form(Self.addresses(p.to))
        cc = IndexedText.form(Self.addresses(p.cc + p.bcc))
        subject = EscapeSequence.removed(from: p.subject)
        attachment = IndexedText.form(p.attachments.compactMap(\.filename).joined(separator: "\n"))
        emailID = p.emailID
        self.account = account
        folder = p.folder
        messageID = p.messageID
        flags = SearchFlags.bits(p.flags, hasAttachment: p.attachments.contains { !$0.isInline })
        date = p.date.microseconds / 1_000_000
        size = Int64(clamping: p.size)
        participants = Self.participants(p.from + p.to + p.cc)
        var types = Set(p.attachments.map { $0.mimeType.lowercased() })
        var text = ""
        if let raw {
            // The structure alone: the envelope and snippet a full parse adds are in the event already.
            let root = MailParser.parseStructure(raw)
            var budget = Self.maxParts
            Self.collect(root, raw: raw, text: &text, types: &types, budget: &budget)
        } else if !p.snippet.isEmpty {
            text = p.snippet
        }
        body = IndexedText.form(text)
        mimetype = types.sorted().joined(separator: "\n")
    }

    /// Walks the MIME tree in order: every text/plain part and every text/html part (as text, from at most
    /// `maxHTMLBytes` of its HTML), embedded messages included, up to `maxBodyBytes`; every part's content type.
    static func collect(_ part: MIMEPart, raw: [UInt8], text: inout String, types: inout Set<String>, budget: inout Int) {
        guard budget > 0 else { return }
        budget -= 1
        types.insert(part.contentType.lowercased())
        if part.isMultipart {
            for c in part.children { collect(c, raw: raw, text: &text, types: &types, budget: &budget) }
            return
        }
        if let inner = part.embedded {
            if let s = inner.subject { append(s, to: &text) }
            collect(inner.root, raw: raw, text: &text, types: &types, budget: &budget)
            return
        }
        let room = maxBodyBytes - text.utf8.count
        guard room > 0 else { return }
        switch part.contentType {
        case "text/plain": append(part.decodedText(in: raw, limit: room), to: &text)
        case "text/html":
            append(HTMLText.plainText(part.decodedText(in: raw, limit: maxHTMLBytes, widening: false), limit: room), to: &text)
        default: break
        }
    }

    /// Appends `s` as a line of its own, without its terminal escape sequences (``EscapeSequence``: `ESC [ 31 m`
    /// would leave the word `31m`, glued to the next).
    static func append(_ s: String, to text: inout String) {
        if s.isEmpty { return }
        if !text.isEmpty { text.append("\n") }
        text.append(EscapeSequence.removed(from: s))
    }

    /// Names and addresses, one per line, for the full-text columns. An address at an internationalised domain is
    /// followed by its form as people read it (`IDNA.unicodeEmail`; schema 12), so `from:bücher` and
    /// `from:xn--bcher-kva` both find `user@xn--bcher-kva.example`.
    static func addresses(_ list: [EmailAddress]) -> String {
        list.map { a in
            let shown = IDNA.unicodeEmail(a.email)
            let email = shown == a.email ? a.email : a.email + " " + shown
            return a.name.map { $0.isEmpty ? email : $0 + " " + email } ?? email
        }.joined(separator: "\n")
    }

    /// `name US email RS` per address (unit and record separators cannot appear in decoded headers' use here).
    static func participants(_ list: [EmailAddress]) -> String {
        var seen = Set<String>()
        var out = ""
        for a in list where !a.email.isEmpty && seen.insert(a.email.lowercased()).inserted {
            out += (a.name ?? "") + "\u{1F}" + a.email + "\u{1E}"
        }
        return out
    }

    /// The participants back as addresses.
    static func decodeParticipants(_ s: String) -> [EmailAddress] {
        s.split(separator: "\u{1E}").map { rec in
            let parts = rec.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            let name = parts.count > 1 && !parts[0].isEmpty ? String(parts[0]) : nil
            return EmailAddress(name: name, email: String(parts.last ?? ""))
        }
    }
}

/// The flag bits of the `docs.flags` column.
enum SearchFlags {
    static let seen: Int64 = 1
    static let flagged: Int64 = 2
    static let attachment: Int64 = 4

    static func bits(_ flags: [String], hasAttachment: Bool) -> Int64 {
        (flags.contains("\\Seen") ? seen : 0) | (flags.contains("\\Flagged") ? flagged : 0) | (hasAttachment ? attachment : 0)
    }

    /// The IMAP flags the bits stand for (what `CopyChange.applied` needs).
    static func flags(_ bits: Int64) -> [String] {
        (bits & seen != 0 ? ["\\Seen"] : []) + (bits & flagged != 0 ? ["\\Flagged"] : [])
    }
}
