import Categorizer
import FuzzSupport
import MailParser

/// Fuzzes the RFC 5322 / MIME parser (`MailParser.parse`) with message bytes.
///
/// Invariants checked for every input (of n bytes):
/// - every part's header and body ranges lie inside the input, the header before the body, and each
///   child's (and embedded message's) ranges inside its parent's body;
/// - at most 10,000 parts and nesting no deeper than 50 (the parser's stated bounds);
/// - every attachment's range lies inside the input;
/// - decoded text is bounded by the input: subject, bodies, names and header values at most 9n + 64 bytes
///   of UTF-8 (the worst case found: a raw byte in a header becomes U+FFFD, 3 bytes, and an encoded word
///   in an unknown charset that mixes those with an invalid byte turns each of the 3 into U+FFFD again);
///   the snippet at most 100 characters;
/// - at most 65 warnings per message (64 and "further warnings dropped");
/// - the structure alone (`MailParser.parseStructure`, what the search index reads) is the full parse's tree:
///   the same types, ranges, children and embedded messages;
/// - each text part's decoded text (as the search index and snippets read it) at most 9n + 64 bytes, and an
///   HTML part as plain text (`HTMLText.plainText`) at most its limit (4,096 here) + 64 bytes;
/// - the categorizer's rules over the message (`Categorizer.categorize`, as an import runs them) give evidence
///   of at most 80 characters (+ "…") with no control or format character (what a terminal would act on).
enum MIMEFuzz {
    static let categorizer = Categorizer()
    static let htmlLimit = 4_096

    static func check(_ bytes: [UInt8]) {
        let message = MailParser.parse(bytes)
        var parts = 0
        checkMessage(message, within: 0..<bytes.count, inputSize: bytes.count, depth: 0, parts: &parts)
        FuzzCheck.require(parts <= 10_000 + 1, "\(parts) parts")
        sameTree(MailParser.parseStructure(bytes), message.root, at: "root")
        checkTexts(message.root, bytes, bound: 9 * bytes.count + 64)
        let c = categorizer.categorize(MessageSignals(message))
        FuzzCheck.require(c.evidence.count <= 81, "evidence of \(c.evidence.count) characters")
        FuzzCheck.require(!c.evidence.unicodeScalars.contains {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.properties.generalCategory == .format
        }, "a control or format character in the evidence \(c.evidence.debugDescription)")
    }

    /// The structure parse against the full one, part by part.
    static func sameTree(_ a: MIMEPart, _ b: MIMEPart, at path: String) {
        FuzzCheck.require(a.contentType == b.contentType, "\(path): type \(a.contentType) against \(b.contentType)")
        FuzzCheck.require(a.headerRange == b.headerRange && a.bodyRange == b.bodyRange,
                          "\(path): ranges \(a.headerRange) \(a.bodyRange) against \(b.headerRange) \(b.bodyRange)")
        FuzzCheck.require(a.children.count == b.children.count, "\(path): \(a.children.count) children against \(b.children.count)")
        for (i, (x, y)) in zip(a.children, b.children).enumerated() { sameTree(x, y, at: "\(path).\(i)") }
        FuzzCheck.require((a.embedded == nil) == (b.embedded == nil), "\(path): an embedded message in one parse only")
        if let x = a.embedded, let y = b.embedded { sameTree(x.root, y.root, at: "\(path).embedded") }
    }

    /// Every text part's decoded text, and an HTML part's plain text.
    static func checkTexts(_ part: MIMEPart, _ bytes: [UInt8], bound: Int) {
        if part.children.isEmpty && part.embedded == nil && part.type == "text" {
            let text = part.decodedText(in: bytes)
            FuzzCheck.require(text.utf8.count <= bound, "decoded text of \(text.utf8.count) bytes from \(bytes.count)")
            if part.contentType == "text/html" {
                let plain = HTMLText.plainText(text, limit: htmlLimit)
                FuzzCheck.require(plain.utf8.count <= htmlLimit + 64, "plain text of \(plain.utf8.count) bytes, limit \(htmlLimit)")
            }
        }
        for child in part.children { checkTexts(child, bytes, bound: bound) }
        if let embedded = part.embedded { checkTexts(embedded.root, bytes, bound: bound) }
    }

    static func checkMessage(_ message: ParsedMessage, within range: Range<Int>, inputSize n: Int, depth: Int, parts: inout Int) {
        let bound = 9 * n + 64
        func bounded(_ text: String?, _ what: String) {
            guard let text else { return }
            FuzzCheck.require(text.utf8.count <= bound, "\(what) of \(text.utf8.count) bytes from \(n)")
        }
        bounded(message.subject, "subject")
        bounded(message.textBody, "text body")
        bounded(message.htmlBody, "HTML body")
        bounded(message.messageID, "Message-ID")
        FuzzCheck.require(message.snippet.count <= 100, "snippet of \(message.snippet.count) characters")
        FuzzCheck.require(message.headers.count <= n, "\(message.headers.count) header fields from \(n) bytes")
        for field in message.headers {
            bounded(field.name, "field name")
            bounded(field.value, "field value")
        }
        for address in message.from + message.to + message.cc + message.bcc + message.replyTo + message.participants {
            bounded(address.name, "display name")
            bounded(address.email, "address")
        }
        FuzzCheck.require(message.warnings.count <= 65, "\(message.warnings.count) warnings")
        for attachment in message.attachments {
            FuzzCheck.require(attachment.bodyRange.lowerBound >= 0 && attachment.bodyRange.upperBound <= n,
                              "attachment range \(attachment.bodyRange) outside 0..<\(n)")
            FuzzCheck.require(attachment.size >= 0, "attachment size \(attachment.size)")
            bounded(attachment.filename, "file name")
        }
        checkPart(message.root, within: range, inputSize: n, depth: depth, parts: &parts)
    }

    static func checkPart(_ part: MIMEPart, within range: Range<Int>, inputSize n: Int, depth: Int, parts: inout Int) {
        parts += 1
        FuzzCheck.require(depth <= 50 + 2, "nesting \(depth)")
        FuzzCheck.require(inside(part.headerRange, range), "header range \(part.headerRange) outside \(range)")
        FuzzCheck.require(inside(part.bodyRange, range), "body range \(part.bodyRange) outside \(range)")
        FuzzCheck.require(part.headerRange.upperBound <= part.bodyRange.lowerBound,
                          "header \(part.headerRange) after body \(part.bodyRange)")
        for child in part.children {
            checkPart(child, within: part.bodyRange, inputSize: n, depth: depth + 1, parts: &parts)
        }
        if let embedded = part.embedded {
            checkMessage(embedded, within: part.bodyRange, inputSize: n, depth: depth + 1, parts: &parts)
        }
    }

    static func inside(_ inner: Range<Int>, _ outer: Range<Int>) -> Bool {
        inner.isEmpty ? (inner.lowerBound >= outer.lowerBound && inner.lowerBound <= outer.upperBound)
            : (inner.lowerBound >= outer.lowerBound && inner.upperBound <= outer.upperBound)
    }
}
