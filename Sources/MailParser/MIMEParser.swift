import Foundation

/// Builds the MIME tree of an entity: multipart splitting, nesting limits
/// and embedded `message/rfc822` messages. Linear in the input for each
/// nesting level; bodies are never copied.
struct MIMEParser {
    /// The deepest nesting followed.
    static let maxDepth = 50
    /// The most parts created for one top-level message.
    static let maxParts = 10_000

    let buf: UnsafeBufferPointer<UInt8>
    var warnings: WarningList
    /// Parts still allowed (shared with embedded messages via inout).
    var partBudget: Int

    /// The defaults that differ between contexts.
    enum DefaultType {
        case textPlain
        case messageRFC822
    }

    /// Builds a part from its header fields and body range.
    mutating func entity(headers: [HeaderField], kinds: [KnownHeader], headerRange: Range<Int>, body: Range<Int>,
                         depth: Int, defaultType: DefaultType) -> MIMEPart {
        var part = MIMEPart(headers: headers, headerRange: headerRange, bodyRange: body)
        partBudget -= 1

        var ctValue: String?
        var cdValue: String?
        var cteValue: String?
        var cidValue: String?
        for (h, kind) in zip(headers, kinds) {
            switch kind {
            case .contentType: if ctValue == nil { ctValue = h.value }
            case .contentDisposition: if cdValue == nil { cdValue = h.value }
            case .contentTransferEncoding: if cteValue == nil { cteValue = h.value }
            case .contentID: if cidValue == nil { cidValue = h.value }
            default: break
            }
        }

        var type = ""
        if let ct = ctValue {
            let parsed = HeaderParameters.parse(ct)
            type = parsed.value
            part.parameters = parsed.parameters
        }
        if !isValidMediaType(type) {
            switch defaultType {
            case .textPlain: type = "text/plain"
            case .messageRFC822: type = "message/rfc822"
            }
        }
        part.contentType = type
        if let cd = cdValue {
            let parsed = HeaderParameters.parse(cd)
            part.disposition = ContentDisposition(token: parsed.value)
            part.dispositionParameters = parsed.parameters
        }
        part.filename = nonEmpty(part.dispositionParameters["filename"]) ?? nonEmpty(part.parameters["name"])
        if let cid = cidValue {
            part.contentID = MessageIDs.parseID(cid)
        }
        part.transferEncoding = TransferEncoding(headerValue: cteValue)
        if case .other(let name) = part.transferEncoding {
            warnings.add(.unknownTransferEncoding, "unknown transfer encoding \(name); body taken raw")
        }

        if type.hasPrefix("multipart/") {
            if depth >= MIMEParser.maxDepth {
                warnings.add(.nestingTooDeep, "multipart nesting deeper than \(MIMEParser.maxDepth) not followed")
                return part
            }
            splitMultipart(&part, depth: depth)
        } else if type == "message/rfc822" || type == "message/global" {
            switch part.transferEncoding {
            case .base64, .quotedPrintable, .other:
                break  // Encoded embedded messages are kept opaque.
            default:
                if depth >= MIMEParser.maxDepth {
                    warnings.add(.nestingTooDeep, "embedded message nesting deeper than \(MIMEParser.maxDepth) not followed")
                } else if partBudget > 0 {
                    let inner = MessageParser.parse(buf, range: body, fallbackDate: nil, depth: depth + 1,
                                                    partBudget: &partBudget)
                    part.embeddedBox = EmbeddedMessage(inner)
                }
            }
        }
        return part
    }

    /// Splits a multipart body into child parts.
    private mutating func splitMultipart(_ part: inout MIMEPart, depth: Int) {
        let body = part.bodyRange
        guard let boundary = nonEmpty(part.parameters["boundary"]) else {
            warnings.add(.brokenBoundary, "\(part.contentType) without boundary; body treated as text")
            part.contentType = "text/plain"
            return
        }
        let delimiter: [UInt8] = [ASCII.minus, ASCII.minus] + Array(boundary.utf8.prefix(200))
        var delims = findDelimiters(delimiter, in: body)
        guard !delims.isEmpty else {
            warnings.add(.brokenBoundary, "boundary \(boundary.prefix(70)) never found; body treated as text")
            part.contentType = "text/plain"
            return
        }
        if delims.last?.isClose != true {
            warnings.add(.brokenBoundary, "missing close delimiter for boundary \(boundary.prefix(70))")
            delims.append(Delimiter(lineStart: body.upperBound, contentEnd: body.upperBound,
                                    next: body.upperBound, isClose: true))
        }
        let childDefault: DefaultType = part.contentType == "multipart/digest" ? .messageRFC822 : .textPlain
        var children: [MIMEPart] = []
        var k = 0
        while k + 1 < delims.count {
            let start = delims[k].next
            let end = max(start, delims[k + 1].contentEnd)
            k += 1
            if delims[k - 1].isClose { break }
            if partBudget <= 0 {
                warnings.add(.tooManyParts, "more than \(MIMEParser.maxParts) MIME parts; rest ignored")
                break
            }
            var childWarnings = WarningList()
            let section = HeaderSection.parse(buf, from: start, to: end, allowEnvelope: false, warnings: &childWarnings)
            // A part without headers is legitimate ("text/plain" default);
            // only keep warnings other than the missing separator.
            for w in childWarnings.items where w.code != .noHeaderBodySeparator {
                warnings.add(w.code, w.detail)
            }
            let child = entity(headers: section.fields, kinds: section.kinds, headerRange: section.range,
                               body: min(section.bodyStart, end)..<end, depth: depth + 1, defaultType: childDefault)
            children.append(child)
        }
        part.children = children
    }

    /// A boundary delimiter line.
    struct Delimiter {
        /// Where the delimiter line starts.
        var lineStart: Int
        /// Where the preceding part's content ends (before the CRLF that
        /// belongs to the delimiter).
        var contentEnd: Int
        /// Where the line after the delimiter starts.
        var next: Int
        /// Whether this is the close delimiter (`--boundary--`).
        var isClose: Bool
    }

    /// Finds delimiter lines in `range`, stopping after the close delimiter.
    /// Searches for '-' with memchr, so base64 bodies are skipped quickly.
    private func findDelimiters(_ delimiter: [UInt8], in range: Range<Int>) -> [Delimiter] {
        var result: [Delimiter] = []
        var pos = range.lowerBound
        let to = range.upperBound
        while let p = ByteScan.find(ASCII.minus, in: buf, from: pos, to: to) {
            let atLineStart = p == range.lowerBound || buf[p - 1] == ASCII.lf
            guard atLineStart, ByteScan.hasPrefix(buf, at: p, to: to, delimiter) else {
                // Skip to the next line: a delimiter only starts a line.
                guard let nl = ByteScan.find(ASCII.lf, in: buf, from: p, to: to) else { break }
                pos = nl + 1
                continue
            }
            var q = p + delimiter.count
            var isClose = false
            if q + 1 < to, buf[q] == ASCII.minus, buf[q + 1] == ASCII.minus {
                isClose = true
                q += 2
            }
            let (lineEnd, next) = ByteScan.line(in: buf, from: q, to: to)
            if !isClose && !ByteScan.isBlank(buf, from: q, to: lineEnd) {
                pos = next
                continue
            }
            var contentEnd = p
            if contentEnd > range.lowerBound, buf[contentEnd - 1] == ASCII.lf {
                contentEnd -= 1
                if contentEnd > range.lowerBound, buf[contentEnd - 1] == ASCII.cr { contentEnd -= 1 }
            }
            result.append(Delimiter(lineStart: p, contentEnd: contentEnd, next: next, isClose: isClose))
            if isClose { break }
            pos = next
        }
        return result
    }

    /// `type/subtype` with both parts non-empty.
    private func isValidMediaType(_ t: String) -> Bool {
        guard let slash = t.utf8.firstIndex(of: ASCII.slash) else { return false }
        return slash != t.utf8.startIndex && t.utf8.index(after: slash) != t.utf8.endIndex
    }

    private func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
