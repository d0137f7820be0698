import Foundation
@testable import CorpusGenerator

/// A minimal MIME reader for the tests (independent of the generator's code).
struct ParsedPart {
    var headers: [(name: String, value: String)]
    var rawBody: [UInt8]
    var parts: [ParsedPart]

    func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    func headers(_ name: String) -> [String] {
        let lower = name.lowercased()
        return headers.filter { $0.name.lowercased() == lower }.map(\.value)
    }

    var contentType: String {
        guard let ct = header("Content-Type") else { return "text/plain" }
        return ct.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            ?? "text/plain"
    }

    func parameter(_ name: String, of headerName: String = "Content-Type") -> String? {
        guard let value = header(headerName) else { return nil }
        for piece in value.split(separator: ";").dropFirst() {
            let kv = piece.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { continue }
            let key = kv[0].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if key == name.lowercased() {
                var v = kv[1].trimmingCharacters(in: .whitespacesAndNewlines)
                if v.hasPrefix("\"") && v.hasSuffix("\"") && v.count >= 2 { v = String(v.dropFirst().dropLast()) }
                return v
            }
        }
        return nil
    }

    var transferEncoding: String {
        (header("Content-Transfer-Encoding") ?? "7bit").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Body with the transfer encoding removed.
    var decodedBody: [UInt8]? {
        switch transferEncoding {
        case "base64":
            let text = String(decoding: rawBody, as: UTF8.self)
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { return nil }
            return [UInt8](data)
        case "quoted-printable":
            return decodeQuotedPrintable(rawBody)
        default:
            return rawBody
        }
    }

    /// All leaf parts (depth first).
    var leaves: [ParsedPart] {
        parts.isEmpty ? [self] : parts.flatMap(\.leaves)
    }

    var allParts: [ParsedPart] {
        [self] + parts.flatMap(\.allParts)
    }
}

func splitHeaderBody(_ bytes: [UInt8]) -> (header: [UInt8], body: [UInt8])? {
    let sep: [UInt8] = [13, 10, 13, 10]
    if bytes.count >= 2 && bytes[0] == 13 && bytes[1] == 10 { return ([], Array(bytes[2...])) }
    var i = 0
    while i + 4 <= bytes.count {
        if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return (Array(bytes[0 ..< i + 2]), Array(bytes[(i + 4)...]))
        }
        i += 1
    }
    _ = sep
    return nil
}

func splitLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var i = 0
    while i + 1 < bytes.count {
        if bytes[i] == 13 && bytes[i + 1] == 10 {
            lines.append(bytes[start ..< i])
            start = i + 2
            i += 2
        } else {
            i += 1
        }
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    return lines
}

func parseHeaders(_ block: [UInt8]) -> [(name: String, value: String)] {
    var result: [(String, String)] = []
    for line in splitLines(block) {
        let s = String(decoding: line, as: UTF8.self)
        if s.hasPrefix(" ") || s.hasPrefix("\t") {
            if !result.isEmpty { result[result.count - 1].1 += s }
            continue
        }
        guard let colon = s.firstIndex(of: ":") else { continue }
        let name = String(s[s.startIndex ..< colon])
        let value = s[s.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        result.append((name, value))
    }
    return result
}

func parseMIME(_ bytes: [UInt8]) -> ParsedPart? {
    guard let (h, b) = splitHeaderBody(bytes) else { return nil }
    var part = ParsedPart(headers: parseHeaders(h), rawBody: b, parts: [])
    if part.contentType.hasPrefix("multipart/"), let boundary = part.parameter("boundary") {
        let open = Array(("--" + boundary).utf8)
        let close = Array(("--" + boundary + "--").utf8)
        var current: [UInt8]? = nil
        var children: [[UInt8]] = []
        for line in splitLines(b) {
            if Array(line) == close {
                if let c = current { children.append(c) }
                current = nil
                break
            }
            if Array(line) == open {
                if let c = current { children.append(c) }
                current = []
                continue
            }
            if current != nil {
                current!.append(contentsOf: line)
                current!.append(contentsOf: [13, 10])
            }
        }
        for child in children {
            if let p = parseMIME(child) { part.parts.append(p) }
        }
    }
    return part
}

func decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8]? {
    var out: [UInt8] = []
    var i = 0
    func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 48 ... 57: return b - 48
        case 65 ... 70: return b - 55
        case 97 ... 102: return b - 87
        default: return nil
        }
    }
    while i < bytes.count {
        let b = bytes[i]
        if b == UInt8(ascii: "=") {
            if i + 2 < bytes.count && bytes[i + 1] == 13 && bytes[i + 2] == 10 { i += 3; continue }
            guard i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) else { return nil }
            out.append(hi << 4 | lo)
            i += 3
        } else {
            out.append(b)
            i += 1
        }
    }
    return out
}

/// Decodes RFC 2047 encoded words in a header value (charsets the generator uses).
func decodeEncodedWords(_ value: String) -> String? {
    var result = ""
    var rest = Substring(value)
    var lastWasWord = false
    while let start = rest.range(of: "=?") {
        let before = rest[rest.startIndex ..< start.lowerBound]
        if !(lastWasWord && before.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })) {
            result += before
        }
        let afterStart = rest[start.upperBound...]
        let pieces = afterStart.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard pieces.count == 4, pieces[3].hasPrefix("=") else { return nil }
        let charsetName = String(pieces[0])
        let encoding = pieces[1].uppercased()
        let text = pieces[2]
        var bytes: [UInt8]
        if encoding == "B" {
            guard let d = Data(base64Encoded: String(text)) else { return nil }
            bytes = [UInt8](d)
        } else if encoding == "Q" {
            guard let d = decodeQuotedPrintable(Array(text.replacingOccurrences(of: "_", with: " ").utf8)) else { return nil }
            bytes = d
        } else {
            return nil
        }
        guard let decoded = decodeCharset(bytes, name: charsetName) else { return nil }
        result += decoded
        rest = pieces[3].dropFirst()
        lastWasWord = true
    }
    result += rest
    return result
}

func decodeCharset(_ bytes: [UInt8], name: String) -> String? {
    if let c = Charset.fromMIMEName(name) { return decodeToUTF8(bytes, from: c) }
    // Header-only charsets (ISO-2022-JP, EUC-KR, ISO-8859-7).
    return iconvToUTF8(bytes, iconvName: name.uppercased())
}

/// Parses an RFC 5322 date ("Mon, 1 Jan 2024 10:00:00 +0100 (CET)") to epoch seconds.
func parseRFC5322Date(_ s: String) -> Int? {
    var tokens = s.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    if let first = tokens.first, first.count == 3, Int(first) == nil { tokens.removeFirst() }
    guard tokens.count >= 5, let day = Int(tokens[0]), let year = Int(tokens[2]) else { return nil }
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    guard let mi = months.firstIndex(of: tokens[1]) else { return nil }
    let hms = tokens[3].split(separator: ":").compactMap { Int($0) }
    guard hms.count == 3 else { return nil }
    let zone = tokens[4]
    guard zone.count == 5, let z = Int(zone.dropFirst()) else { return nil }
    let sign = zone.hasPrefix("-") ? -1 : 1
    let offset = sign * ((z / 100) * 60 + z % 100) * 60
    // days from civil
    let m = mi + 1
    let y = m <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    return days * 86_400 + hms[0] * 3600 + hms[1] * 60 + hms[2] - offset
}

/// Reads every message file of a Maildir++ tree: (folder dir, "cur"/"new", name, bytes).
struct MaildirEntry {
    var folder: String
    var sub: String
    var name: String
    var bytes: [UInt8]
}

func readMaildir(_ root: URL) throws -> [MaildirEntry] {
    let fm = FileManager.default
    var folders = [""]
    for name in try fm.contentsOfDirectory(atPath: root.path) where name.hasPrefix(".") {
        folders.append(name)
    }
    var result: [MaildirEntry] = []
    for folder in folders.sorted() {
        for sub in ["cur", "new"] {
            let dir = folder.isEmpty ? root.appendingPathComponent(sub) : root.appendingPathComponent(folder)
                .appendingPathComponent(sub)
            for name in try fm.contentsOfDirectory(atPath: dir.path).sorted() {
                let data = try Data(contentsOf: dir.appendingPathComponent(name))
                result.append(MaildirEntry(folder: folder, sub: sub, name: name, bytes: [UInt8](data)))
            }
        }
    }
    return result
}

/// All regular files below `root` (relative path -> bytes).
func readTree(_ root: URL) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    let fm = FileManager.default
    guard let e = fm.enumerator(atPath: root.path) else { return [:] }
    while let rel = e.nextObject() as? String {
        var isDir: ObjCBool = false
        let full = root.appendingPathComponent(rel)
        if fm.fileExists(atPath: full.path, isDirectory: &isDir), !isDir.boolValue {
            result[rel] = [UInt8](try Data(contentsOf: full))
        }
    }
    return result
}

func makeTempDirectory(_ tag: String) -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("gencorpus-tests-\(tag)-\(getpid())-\(UInt64.random(in: 0 ... UInt64.max))")
    return url
}

extension Array where Element == UInt8 {
    func contains(_ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard n.count <= count, let first = n.first else { return false }
        var i = 0
        let last = count - n.count
        while i <= last {
            if self[i] == first {
                var j = 1
                while j < n.count && self[i + j] == n[j] { j += 1 }
                if j == n.count { return true }
            }
            i += 1
        }
        return false
    }
}
