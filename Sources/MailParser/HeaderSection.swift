/// Splits a header section (RFC 5322 section 2.2) into fields and finds
/// where the body starts. Linear in the input size; values are capped.
struct HeaderSection {
    /// The largest stored header value in bytes.
    static let maxValueBytes = 64 * 1024
    /// The most header fields kept per header section.
    static let maxFields = 10_000

    /// The fields in order.
    var fields: [HeaderField] = []
    /// Which known header each field is (parallel to `fields`).
    var kinds: [KnownHeader] = []
    /// The offset where the body starts.
    var bodyStart: Int
    /// The range of the header section (without the blank separator line).
    var range: Range<Int>
    /// The indices in `fields` of the values whose 8-bit bytes were read as Windows-1252 (not UTF-8): read again
    /// in the body's charset by ``readUndeclared8Bit(as:)``.
    var windows1252Fields: [Int] = []

    /// Parses the header section of `buf[from..<to]`.
    /// - Parameter allowEnvelope: skip a leading mbox `From ` line.
    static func parse(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int, allowEnvelope: Bool,
                      warnings: inout WarningList) -> HeaderSection {
        var section = HeaderSection(bodyStart: to, range: from..<to)
        section.fields.reserveCapacity(24)
        section.kinds.reserveCapacity(24)
        var pos = from
        if allowEnvelope, ByteScan.hasPrefix(buf, at: pos, to: to, fromSpace) || ByteScan.hasPrefix(buf, at: pos, to: to, quotedFromSpace) {
            pos = ByteScan.line(in: buf, from: pos, to: to).next
        }
        let start = pos
        section.range = start..<start

        // The current field being built: name range and value line ranges.
        var nameRange: Range<Int>?
        var firstValue = 0..<0
        var continuations: [Range<Int>] = []
        var firstBlank: Int?? = .none  // lazily computed: offset of the first blank line
        var skippedFields = false

        func finishField(into section: inout HeaderSection, warnings: inout WarningList) {
            guard let nr = nameRange else { return }
            nameRange = nil
            if section.fields.count >= maxFields {
                if !skippedFields {
                    skippedFields = true
                    warnings.add(.tooManyHeaders, "more than \(maxFields) header fields")
                }
                continuations.removeAll(keepingCapacity: true)
                return
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: buf[nr]), as: UTF8.self)
            let value = buildValue(buf, first: firstValue, continuations: continuations, name: name, warnings: &warnings)
            if value.windows1252 { section.windows1252Fields.append(section.fields.count) }
            section.fields.append(HeaderField(name: name, value: value.text))
            section.kinds.append(KnownHeader.identify(buf, nr))
            continuations.removeAll(keepingCapacity: true)
        }

        var lineIndex = 0
        while pos < to {
            let (end, next) = ByteScan.line(in: buf, from: pos, to: to)
            defer { lineIndex += 1 }
            if ByteScan.isBlank(buf, from: pos, to: end) {
                // A blank line: end of the header section.
                finishField(into: &section, warnings: &warnings)
                section.range = start..<pos
                section.bodyStart = next
                return section
            }
            let first = buf[pos]
            if ASCII.isWSP(first) {
                if nameRange != nil {
                    continuations.append(pos..<end)
                } else if lineIndex == 0 {
                    // Starts with whitespace: not a header section at all.
                    warnings.add(.noHeaderBodySeparator, "message does not start with a header")
                    section.range = start..<start
                    section.bodyStart = start
                    return section
                } else {
                    warnings.add(.invalidHeaderLine, "continuation line without a field")
                }
                pos = next
                continue
            }
            if let nr = fieldName(buf, from: pos, to: end) {
                finishField(into: &section, warnings: &warnings)
                nameRange = nr.name
                firstValue = nr.valueStart..<end
                pos = next
                continue
            }
            // Not a header line.
            if lineIndex == 0 {
                warnings.add(.noHeaderBodySeparator, "message does not start with a header")
                section.range = start..<start
                section.bodyStart = start
                return section
            }
            if firstBlank == .none { firstBlank = .some(findBlankLine(buf, from: pos, to: to)) }
            if case .some(.some(_)) = firstBlank {
                warnings.add(.invalidHeaderLine, "line without colon skipped: \(preview(buf, from: pos, to: end))")
                pos = next
                continue
            }
            // No blank line anywhere: the body starts here.
            finishField(into: &section, warnings: &warnings)
            warnings.add(.noHeaderBodySeparator, "no blank line after the header section")
            section.range = start..<pos
            section.bodyStart = pos
            return section
        }
        finishField(into: &section, warnings: &warnings)
        if start < to {
            warnings.add(.noHeaderBodySeparator, "no body: input ends inside the header section")
        }
        section.range = start..<to
        section.bodyStart = to
        return section
    }

    private static let fromSpace: [UInt8] = Array("From ".utf8)
    private static let quotedFromSpace: [UInt8] = Array(">From ".utf8)

    /// If the line is `name: value`, the name range (trailing whitespace
    /// trimmed) and where the value starts.
    @inline(__always)
    private static func fieldName(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (name: Range<Int>, valueStart: Int)? {
        var i = from
        while i < to {
            let b = buf[i]
            if b == ASCII.colon { break }
            if b <= 32 || b >= 127 {
                // Allow whitespace between the name and the colon only.
                var j = i
                while j < to, ASCII.isWSP(buf[j]) { j += 1 }
                if j < to, buf[j] == ASCII.colon, j > i, i > from { return (from..<i, j + 1) }
                return nil
            }
            i += 1
        }
        guard i < to, i > from else { return nil }
        return (from..<i, i + 1)
    }

    /// The offset of the first blank line at or after `from`, if any.
    private static func findBlankLine(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var pos = from
        while pos < to {
            let (end, next) = ByteScan.line(in: buf, from: pos, to: to)
            if ByteScan.isBlank(buf, from: pos, to: end) { return pos }
            pos = next
        }
        return nil
    }

    /// A short printable preview of a line for warning details.
    static func preview(_ buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> String {
        let end = min(to, from + 40)
        var bytes = [UInt8]()
        var i = from
        while i < end {
            let b = buf[i]
            bytes.append(b >= 32 && b < 127 ? b : ASCII.question)
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Unfolds, trims and caps a value; removes NULs and bare CRs. `windows1252`: ``ByteScan/headerText(_:)``'s.
    private static func buildValue(_ buf: UnsafeBufferPointer<UInt8>, first: Range<Int>, continuations: [Range<Int>],
                                   name: String, warnings: inout WarningList) -> (text: String, windows1252: Bool) {
        var a = first.lowerBound
        var b = first.upperBound
        while a < b, ASCII.isWhitespace(buf[a]) { a += 1 }
        if continuations.isEmpty {
            while b > a, ASCII.isWhitespace(buf[b - 1]) { b -= 1 }
            let clean = ByteScan.find(ASCII.nul, in: buf, from: a, to: b) == nil
                && ByteScan.find(ASCII.cr, in: buf, from: a, to: b) == nil
            if clean && b - a <= maxValueBytes {
                return a < b ? ByteScan.headerText(UnsafeBufferPointer(rebasing: buf[a..<b])) : ("", false)
            }
        }
        var out = [UInt8]()
        var truncated = false
        var sawNUL = false
        func append(_ from: Int, _ to: Int) {
            let room = maxValueBytes - out.count
            if ByteScan.find(ASCII.nul, in: buf, from: from, to: to) == nil
                && ByteScan.find(ASCII.cr, in: buf, from: from, to: to) == nil
                && ByteScan.find(ASCII.lf, in: buf, from: from, to: to) == nil {
                if to - from <= room {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[from..<to]))
                    return
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[from..<(from + max(0, room))]))
                truncated = true
                return
            }
            var i = from
            while i < to {
                if out.count >= maxValueBytes { truncated = true; return }
                let c = buf[i]
                if c == ASCII.nul {
                    sawNUL = true
                } else if c == ASCII.cr || c == ASCII.lf {
                    out.append(ASCII.space)
                } else {
                    out.append(c)
                }
                i += 1
            }
        }
        out.reserveCapacity(min(maxValueBytes, b - a + continuations.count * 80))
        append(a, b)
        for c in continuations {
            if truncated { break }
            var s = c.lowerBound
            while s < c.upperBound, ASCII.isWhitespace(buf[s]) { s += 1 }
            if s == c.upperBound { continue }
            if let last = out.last, !ASCII.isWSP(last) { out.append(ASCII.space) }
            append(s, c.upperBound)
        }
        while let l = out.last, ASCII.isWhitespace(l) { out.removeLast() }
        if truncated {
            // Do not cut a UTF-8 sequence in half.
            var k = 0
            while k < 3, let l = out.last, l & 0xC0 == 0x80 { out.removeLast(); k += 1 }
            if let l = out.last, l >= 0xC0 { out.removeLast() }
            warnings.add(.headerTooLong, "\(name.prefix(40)) value truncated to \(maxValueBytes) bytes")
        }
        if sawNUL && !warnings.contains(.nulBytes) {
            warnings.add(.nulBytes, "NUL bytes removed from header \(name.prefix(40))")
        }
        return out.withUnsafeBufferPointer { ByteScan.headerText($0) }
    }
}
