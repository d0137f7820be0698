import Foundation

/// Parses one message (top-level or embedded) occupying `range` of a
/// buffer into a `ParsedMessage`.
enum MessageParser {
    /// Parses `buf[range]`.
    /// - Parameters:
    ///   - depth: nesting depth (0 for the top-level message).
    ///   - partBudget: MIME parts still allowed, shared across nesting.
    static func parse(_ buf: UnsafeBufferPointer<UInt8>, range: Range<Int>, fallbackDate: Date?, depth: Int,
                      partBudget: inout Int) -> ParsedMessage {
        var warnings = WarningList()
        if depth == 0, ByteScan.find(ASCII.nul, in: buf, from: range.lowerBound, to: range.upperBound) != nil {
            warnings.add(.nulBytes, "message contains NUL bytes")
        }
        let section = HeaderSection.parse(buf, from: range.lowerBound, to: range.upperBound,
                                          allowEnvelope: depth == 0, warnings: &warnings)
        var mime = MIMEParser(buf: buf, warnings: warnings, partBudget: partBudget)
        let root = mime.entity(headers: section.fields, headerRange: section.range,
                               body: min(section.bodyStart, range.upperBound)..<range.upperBound,
                               depth: depth, defaultType: .textPlain)
        warnings = mime.warnings
        partBudget = mime.partBudget

        var h = Envelope()
        h.collect(section.fields, warnings: &warnings)

        // Date: header, then Received, then the caller's fallback.
        var date: Date?
        var source = DateSource.none
        if let dv = h.date {
            if let parsed = MailDate.parseDetailed(dv) {
                date = Date(timeIntervalSince1970: TimeInterval(parsed.epoch))
                source = .header
                if !parsed.hasZone { warnings.add(.missingTimeZone, "date without time zone taken as UTC: \(dv.prefix(60))") }
            } else {
                warnings.add(.unparseableDate, "unparseable Date: \(dv.prefix(60))")
            }
        } else {
            warnings.add(.missingDate, "no Date header")
        }
        if date == nil {
            for f in section.fields where f.hasName("received") {
                guard let semi = f.value.lastIndex(of: ";") else { continue }
                if let parsed = MailDate.parseDetailed(String(f.value[f.value.index(after: semi)...])) {
                    date = Date(timeIntervalSince1970: TimeInterval(parsed.epoch))
                    source = .received
                    break
                }
            }
        }
        if date == nil, let fb = fallbackDate {
            date = fb
            source = .fallback
        }

        // Bodies, snippet and attachments.
        let selection = BodyParts.select(root: root, buf: buf)
        let textBody = selection.text.map { $0.decodeText(buf, warnings: &warnings) }
        let htmlBody = selection.html.map { $0.decodeText(buf, warnings: &warnings) }
        var snippet = textBody.map { Snippet.make(fromPlainText: $0) } ?? ""
        if snippet.isEmpty, let html = htmlBody {
            snippet = Snippet.make(fromHTML: html)
        }

        return ParsedMessage(
            headers: section.fields,
            messageID: h.messageID,
            inReplyTo: h.inReplyTo,
            references: h.references,
            subject: h.subject,
            from: h.from,
            sender: h.sender,
            replyTo: h.replyTo,
            to: h.to,
            cc: h.cc,
            bcc: h.bcc,
            date: date,
            dateSource: source,
            gmailThreadID: h.gmailThreadID,
            listID: h.listID,
            root: root,
            textBody: textBody,
            htmlBody: htmlBody,
            snippet: snippet,
            attachments: selection.attachments,
            participants: participants(from: h.from.isEmpty ? (h.sender.map { [$0] } ?? []) : h.from,
                                       to: h.to, cc: h.cc),
            warnings: warnings.items
        )
    }

    /// From (or Sender), To, Cc; de-duplicated by normalized address; a
    /// later occurrence supplies a missing name.
    static func participants(from: [MailAddress], to: [MailAddress], cc: [MailAddress]) -> [MailAddress] {
        var result: [MailAddress] = []
        var index: [String: Int] = [:]
        for list in [from, to, cc] {
            for a in list where !a.email.isEmpty {
                let key = a.normalizedEmail
                let name = (a.name?.isEmpty ?? true) ? nil : a.name
                if let i = index[key] {
                    if result[i].name == nil, let name { result[i].name = name }
                    continue
                }
                index[key] = result.count
                result.append(MailAddress(name: name, email: a.email))
            }
        }
        return result
    }
}
