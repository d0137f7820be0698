import Foundation

/// Parses one message (top-level or embedded) occupying `range` of a
/// buffer into a `ParsedMessage`.
enum MessageParser {
    /// Parses `buf[range]`.
    /// - Parameters:
    ///   - depth: nesting depth (0 for the top-level message).
    ///   - partBudget: MIME parts still allowed, shared across nesting.
    ///   - now: the present, for a date past it (``FutureDate``); nil: none known (a date is only checked against
    ///     the message's arrival).
    static func parse(_ buf: UnsafeBufferPointer<UInt8>, range: Range<Int>, fallbackDate: Date?, now: Date? = nil,
                      depth: Int, partBudget: inout Int) -> ParsedMessage {
        var warnings = WarningList()
        if depth == 0, ByteScan.find(ASCII.nul, in: buf, from: range.lowerBound, to: range.upperBound) != nil {
            warnings.add(.nulBytes, "message contains NUL bytes")
        }
        let (section, root) = structure(buf, range: range, depth: depth, partBudget: &partBudget, warnings: &warnings)

        var h = Envelope()
        h.collect(section.fields, kinds: section.kinds, warnings: &warnings)

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
        // The topmost parseable Received date: the date when the header gives none, the arrival to check it against.
        var received: Date?
        var tried = 0
        for (f, kind) in zip(section.fields, section.kinds) where kind == .received && tried < 20 {
            tried += 1
            guard let dateText = Self.receivedDate(f.value) else { continue }
            if let parsed = MailDate.parseDetailed(dateText) {
                received = Date(timeIntervalSince1970: TimeInterval(parsed.epoch))
                break
            }
        }
        if date == nil, let r = received {
            date = r
            source = .received
        }
        if date == nil, let fb = fallbackDate {
            date = fb
            source = .fallback
        }
        if let d = date, let fixed = FutureDate.corrected(d, source: source, received: received, fallback: fallbackDate, now: now) {
            date = fixed.date
            source = fixed.source
            warnings.add(.futureDate, fixed.warning)
        }

        // Bodies, snippet and attachments.
        let selection = BodyParts.select(root: root, buf: buf)
        let textBody = selection.text.map { bodyText($0, buf, warnings: &warnings) }
        let htmlBody = selection.html.map { bodyText($0, buf, warnings: &warnings) }
        var snippet = textBody.map { Snippet.make(fromPlainText: $0) } ?? ""
        if snippet.isEmpty, let html = htmlBody {
            snippet = Snippet.make(fromHTML: html)
        }

        let listedAttachments = listed(selection.attachments, warnings: &warnings)
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
            attachments: listedAttachments.list,
            unlistedAttachments: listedAttachments.unlisted,
            participants: participants(from: h.from.isEmpty ? (h.sender.map { [$0] } ?? []) : h.from,
                                       to: h.to, cc: h.cc),
            warnings: warnings.items
        )
    }

    /// `attachments` within ``ParsedMessage/maxListedAttachments`` and ``ParsedMessage/maxAttachmentListBytes`` of names
    /// and types, in tree order, and how many real (not inline) attachments were left out. Over the bounds, real
    /// attachments are taken first, in order, and inline parts fill what is left (a message whose first parts are
    /// hundreds of long-named inline images keeps its real attachments); an entry that does not fit is left out and
    /// the next ones still tried. Any left out make a `tooManyAttachments` warning counting both kinds.
    static func listed(_ attachments: [Attachment], warnings: inout WarningList) -> (list: [Attachment], unlisted: Int) {
        let size = { (a: Attachment) in (a.filename?.utf8.count ?? 0) + a.mimeType.utf8.count }
        let total = attachments.reduce(0) { $0 + size($1) }
        guard attachments.count > ParsedMessage.maxListedAttachments || total > ParsedMessage.maxAttachmentListBytes else {
            return (attachments, 0)
        }
        var keep = [Bool](repeating: false, count: attachments.count)
        var bytes = 0, kept = 0
        for inline in [false, true] {
            for (i, a) in attachments.enumerated() where a.isInline == inline {
                guard kept < ParsedMessage.maxListedAttachments else { break }
                guard bytes + size(a) <= ParsedMessage.maxAttachmentListBytes else { continue }
                bytes += size(a)
                kept += 1
                keep[i] = true
            }
        }
        let list = attachments.indices.filter { keep[$0] }.map { attachments[$0] }
        let real = attachments.filter { !$0.isInline }.count
        let unlisted = real - list.filter { !$0.isInline }.count
        let unlistedInline = attachments.count - real - list.filter(\.isInline).count
        warnings.add(.tooManyAttachments, "\(attachments.count) attachments; \(kept) listed, left out \(unlisted) real and "
                     + "\(unlistedInline) inline (at most \(ParsedMessage.maxListedAttachments), "
                     + "\(ParsedMessage.maxAttachmentListBytes) bytes of names and types; real ones first)")
        return (list, unlisted)
    }

    /// The text of a body part, at most `ParsedMessage.maxBodyTextBytes` of it (a `bodyTextCut` warning when cut),
    /// from the first window alone (`TextWindow.first(for:)`: a part whose text shrinks past it keeps less).
    static func bodyText(_ part: MIMEPart, _ buf: UnsafeBufferPointer<UInt8>, warnings: inout WarningList) -> String {
        let limit = ParsedMessage.maxBodyTextBytes
        let (text, cut, _) = part.decodeText(buf, limit: limit, widening: false, warnings: &warnings)
        if cut { warnings.add(.bodyTextCut, "\(part.contentType) body: its text cut at \(limit) bytes") }
        return text
    }

    /// The root part of `buf[range]` as `parse` builds it (the same header section and MIME walk), with nothing
    /// else: no envelope, date, body selection or snippet.
    static func parseStructure(_ buf: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int,
                               partBudget: inout Int) -> MIMEPart {
        var warnings = WarningList()
        return structure(buf, range: range, depth: depth, partBudget: &partBudget, warnings: &warnings).root
    }

    /// The header section of `buf[range]` and its MIME tree: the first step of both parses.
    private static func structure(_ buf: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int, partBudget: inout Int,
                                  warnings: inout WarningList) -> (section: HeaderSection, root: MIMEPart) {
        var section = HeaderSection.parse(buf, from: range.lowerBound, to: range.upperBound,
                                          allowEnvelope: depth == 0, warnings: &warnings)
        var mime = MIMEParser(buf: buf, warnings: warnings, partBudget: partBudget)
        var root = mime.entity(headers: section.fields, kinds: section.kinds, headerRange: section.range,
                               body: min(section.bodyStart, range.upperBound)..<range.upperBound,
                               depth: depth, defaultType: .textPlain)
        warnings = mime.warnings
        partBudget = mime.partBudget
        // 8-bit header bytes no encoded word declares and not UTF-8: the body's charset when they are clean in it.
        if !section.windows1252Fields.isEmpty, let charset = BodyParts.declaredCharset(root: root, buf: buf),
           section.readUndeclared8Bit(as: charset) {
            root.headers = section.fields
        }
        return (section, root)
    }

    /// The text after the last ';' of a Received value (if short enough to
    /// be a date).
    static func receivedDate(_ value: String) -> String? {
        value.withBytes { b in
            guard let semi = b.lastIndex(of: ASCII.semicolon), b.count - semi <= 512 else { return nil }
            return ByteScan.headerString(b, from: semi + 1, to: b.count)
        }
    }

    /// Whether two addresses are equal after lowercasing.
    private static func sameAddress(_ a: String, _ b: String) -> Bool {
        if ASCII.equalsIgnoringCase(a, b) { return true }
        // Non-ASCII addresses: full Unicode lowercasing.
        if !a.isASCIIOnly || !b.isASCIIOnly {
            return a.lowercased() == b.lowercased()
        }
        return false
    }

    /// From (or Sender), To, Cc; de-duplicated by normalized address; a
    /// later occurrence supplies a missing name.
    static func participants(from: [MailAddress], to: [MailAddress], cc: [MailAddress]) -> [MailAddress] {
        var result: [MailAddress] = []
        result.reserveCapacity(from.count + to.count + cc.count)
        // Small lists (the usual case) are de-duplicated by a linear scan
        // without building lowercased keys; large ones use a dictionary.
        let useIndex = from.count + to.count + cc.count > 32
        var index: [String: Int] = [:]
        func add(_ list: [MailAddress]) {
            for a in list where !a.email.isEmpty {
                let name = (a.name?.isEmpty ?? true) ? nil : a.name
                let existing: Int?
                let key: String?
                if useIndex {
                    let k = a.normalizedEmail
                    key = k
                    existing = index[k]
                } else {
                    key = nil
                    existing = result.firstIndex { sameAddress($0.email, a.email) }
                }
                if let i = existing {
                    if result[i].name == nil, let name { result[i].name = name }
                    continue
                }
                if let key { index[key] = result.count }
                result.append(MailAddress(name: name, email: a.email))
            }
        }
        add(from)
        add(to)
        add(cc)
        return result
    }
}
