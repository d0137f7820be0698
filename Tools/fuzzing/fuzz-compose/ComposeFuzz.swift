import Foundation
import FuzzSupport
import MailParser
import MessageComposer

/// Fuzzes the composer (`MessageComposer.compose`) with what a user types and attaches: the subject, the text, a
/// recipient's name and address, an attachment's name, type and bytes, a reference id. The input's fields are
/// separated by NUL bytes in that order; a last field's first byte sets 8BITMIME (bit 0).
///
/// Invariants checked for every draft the composer accepts:
/// - the message is CRLF only, with no line over 998 bytes (RFC 5322 2.1.1); without 8BITMIME every byte is ASCII (unless the
///   address is not: an internationalized address goes out as UTF-8, and the SMTP client sends it only with SMTPUTF8);
/// - its header has only the fields the composer writes (no text the user typed starts a field: no header
///   injection), and no Bcc;
/// - read back by `MailParser`, it has the subject (controls as spaces), the text (line ends as the composer
///   sends them, a last line break added), the recipient's address, and the attachment's name (controls as spaces) and bytes.
enum ComposeFuzz {
    static let written: Set<String> = ["date", "from", "to", "cc", "subject", "message-id", "in-reply-to", "references",
                                       "mime-version", "content-type", "content-transfer-encoding"]
    static let date = Date(timeIntervalSince1970: 1_794_823_200)

    static func check(_ bytes: [UInt8]) {
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        while fields.count < 9 { fields.append("") }
        let flags = fields[8].utf8.first ?? 0
        let recipient = MailAddress(name: fields[2].isEmpty ? nil : fields[2], email: fields[3] + "@example.org")
        let attachments = fields[4].isEmpty ? [] : [DraftAttachment(filename: fields[4], mimeType: fields[5], data: Array(fields[6].utf8))]
        let draft = MessageDraft(from: MailAddress(name: "Alice", email: "alice@example.com"), to: [recipient],
                                 subject: fields[0], text: fields[1], attachments: attachments,
                                 inReplyTo: fields[7].isEmpty ? nil : fields[7], references: fields[7].isEmpty ? [] : [fields[7]],
                                 date: date, timeZone: TimeZone(secondsFromGMT: 3600)!, allowsEightBit: flags & 1 == 1)
        guard let message = try? MessageComposer.compose(draft) else { return }
        let out = message.bytes
        for (i, b) in out.enumerated() {
            if b == 0x0A { FuzzCheck.require(i > 0 && out[i - 1] == 0x0D, "a bare LF at \(i)") }
            if b == 0x0D { FuzzCheck.require(i + 1 < out.count && out[i + 1] == 0x0A, "a bare CR at \(i)") }
            if !draft.allowsEightBit && recipient.email.utf8.allSatisfy({ $0 < 0x80 }) {
                FuzzCheck.require(b < 0x80, "an 8-bit byte without 8BITMIME at \(i)")
            }
        }
        var lineStart = 0
        for (i, b) in out.enumerated() where b == 0x0A {
            FuzzCheck.require(i - 1 - lineStart <= 998, "a line of \(i - 1 - lineStart) bytes")
            lineStart = i + 1
        }
        FuzzCheck.require(out.count - lineStart <= 998, "a last line of \(out.count - lineStart) bytes")
        let text = String(decoding: out, as: UTF8.self)
        let header = text.components(separatedBy: "\r\n\r\n")[0]
        for line in header.components(separatedBy: "\r\n") where !(line.hasPrefix(" ") || line.hasPrefix("\t")) {
            let name = line.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            FuzzCheck.require(written.contains(name), "a header field the composer does not write: \(line.debugDescription)")
        }

        let parsed = MailParser.parse(out)
        let subject = controlsAsSpaces(draft.subject)
        FuzzCheck.require(trimmed(parsed.subject ?? "") == trimmed(subject),
                          "subject \(draft.subject.debugDescription) reads as \(String(describing: parsed.subject).debugDescription)")
        FuzzCheck.require(parsed.to.map(\.email) == [recipient.email], "To \(recipient.email.debugDescription) reads as \(parsed.to.map(\.email))")
        let sentText = lineFeeds(draft.text)
        let readText = lineFeeds(parsed.textBody ?? "")
        // A text not ending in a line break gets one (the body's last line ends with CRLF).
        FuzzCheck.require(readText == sentText || readText == sentText + "\n" || (readText.isEmpty && sentText.isEmpty),
                          "text \(draft.text.debugDescription) reads as \(String(describing: parsed.textBody).debugDescription)")
        if let attachment = attachments.first {
            var found: [(String?, [UInt8])] = []
            var pending = [parsed.root]
            while let part = pending.popLast() {
                if part.filename != nil { found.append((part.filename, part.decodedBody(in: out))) }
                pending += part.children.reversed()
            }
            FuzzCheck.require(found.count == 1, "\(found.count) attachments read back")
            FuzzCheck.require(found.first?.1 == attachment.data, "the attachment's bytes differ")
            FuzzCheck.require(found.first?.0 == controlsAsSpaces(attachment.filename),
                              "attachment \(attachment.filename.debugDescription) reads as \(String(describing: found.first?.0).debugDescription)")
        }
    }

    static func trimmed(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces) }

    /// `text` with CR LF and a lone CR as LF, by scalars: Foundation's `replacingOccurrences(of: "\r", ...)` had left
    /// a CR followed by a combining mark in place (it matches by character).
    static func lineFeeds(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var afterCR = false
        for u in text.unicodeScalars {
            if u == "\n", afterCR { afterCR = false; continue }
            afterCR = u == "\r"
            out.append(afterCR ? "\n" : u)
        }
        return String(out)
    }

    /// `text` with its control characters as spaces, as the composer writes header text (no line break gets in).
    static func controlsAsSpaces(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
