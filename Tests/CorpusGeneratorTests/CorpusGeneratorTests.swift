import Foundation
import XCTest
@testable import CorpusGenerator

/// One 2,000-message Maildir corpus shared by the feature tests (generated once).
private final class SharedCorpus: @unchecked Sendable {
    static let size = 2000
    static let seed: UInt64 = 20240101
    static let shared = SharedCorpus()

    let root: URL
    let summary: CorpusSummary
    let entries: [MaildirEntry]
    let parsed: [ParsedPart]
    /// First entry of each distinct message (by Message-ID).
    let unique: [Int]

    private init() {
        root = makeTempDirectory("shared")
        summary = try! generateCorpus(CorpusOptions(messages: Self.size, outputDirectory: root.path,
                                                    format: .maildir, seed: Self.seed))
        entries = try! readMaildir(root)
        parsed = entries.map { parseMIME($0.bytes)! }
        var seen = Set<String>()
        var u: [Int] = []
        for (i, p) in parsed.enumerated() {
            let id = p.header("Message-ID") ?? p.header("Message-Id") ?? "missing-\(i)"
            if seen.insert(id).inserted { u.append(i) }
        }
        unique = u
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

final class CorpusGeneratorTests: XCTestCase {
    private var cleanup: [URL] = []

    override func tearDown() {
        for url in cleanup { try? FileManager.default.removeItem(at: url) }
        cleanup = []
        super.tearDown()
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: SharedCorpus.shared.root)
        super.tearDown()
    }

    private func temp(_ tag: String) -> URL {
        let url = makeTempDirectory(tag)
        cleanup.append(url)
        return url
    }

    private var corpus: SharedCorpus { SharedCorpus.shared }

    /// Share of distinct messages satisfying `predicate`.
    private func share(_ predicate: (ParsedPart, MaildirEntry) -> Bool) -> Double {
        let c = corpus
        var n = 0
        for i in c.unique where predicate(c.parsed[i], c.entries[i]) { n += 1 }
        return Double(n) / Double(c.unique.count)
    }

    private func assertShare(_ name: String, _ value: Double, _ lo: Double, _ hi: Double,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssert(value >= lo && value <= hi,
                  "\(name): \(String(format: "%.2f", value * 100))% not in [\(lo * 100)%, \(hi * 100)%]",
                  file: file, line: line)
    }

    // MARK: Determinism

    func testSameSeedGivesIdenticalMaildir() throws {
        let a = temp("det-a"), b = temp("det-b")
        let sa = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: a.path, seed: 7))
        let sb = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: b.path, seed: 7))
        XCTAssertEqual(sa.messages, sb.messages)
        XCTAssertEqual(sa.bytes, sb.bytes)
        let ta = try readTree(a), tb = try readTree(b)
        XCTAssertEqual(ta.count, tb.count)
        XCTAssertEqual(Set(ta.keys), Set(tb.keys))
        for (k, v) in ta { XCTAssertEqual(v, tb[k], "file \(k) differs") }
    }

    func testDifferentSeedGivesDifferentMaildir() throws {
        let a = temp("seed-a"), b = temp("seed-b")
        _ = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: a.path, seed: 7))
        _ = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: b.path, seed: 8))
        let ta = try readTree(a), tb = try readTree(b)
        XCTAssertNotEqual(Set(ta.keys), Set(tb.keys), "file names embed the seed")
        let bytesA = ta.values.map { $0 }.sorted { $0.count < $1.count }
        let bytesB = tb.values.map { $0 }.sorted { $0.count < $1.count }
        XCTAssertNotEqual(bytesA, bytesB)
    }

    func testSameSeedGivesIdenticalMbox() throws {
        let a = temp("mbox-a"), b = temp("mbox-b"), c = temp("mbox-c")
        _ = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: a.path, format: .mbox, seed: 11))
        _ = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: b.path, format: .mbox, seed: 11))
        _ = try generateCorpus(CorpusOptions(messages: 150, outputDirectory: c.path, format: .mbox, seed: 12))
        let ma = try Data(contentsOf: a.appendingPathComponent("mbox"))
        let mb = try Data(contentsOf: b.appendingPathComponent("mbox"))
        let mc = try Data(contentsOf: c.appendingPathComponent("mbox"))
        XCTAssertEqual(ma, mb)
        XCTAssertNotEqual(ma, mc)
        XCTAssertGreaterThan(ma.count, 150 * 1000)
    }

    func testStreamIsDeterministic() {
        let s1 = CorpusStream(configuration: CorpusConfiguration(messages: 200, seed: 99))
        let s2 = CorpusStream(configuration: CorpusConfiguration(messages: 200, seed: 99))
        var n = 0
        while let m1 = s1.next() {
            guard let m2 = s2.next() else { return XCTFail("second stream ended early") }
            XCTAssertEqual(m1.bytes, m2.bytes)
            XCTAssertEqual(m1.folder, m2.folder)
            XCTAssertEqual(m1.flags, m2.flags)
            XCTAssertEqual(m1.isNew, m2.isNew)
            XCTAssertEqual(m1.timestamp, m2.timestamp)
            n += 1
        }
        XCTAssertNil(s2.next())
        XCTAssertEqual(n, 200)
    }

    func testPRNGMatchesReferenceVectors() {
        // SplitMix64 reference output for seed 1234567.
        var sm = SplitMix64(seed: 1_234_567)
        XCTAssertEqual(sm.next(), 6_457_827_717_110_365_317)
        XCTAssertEqual(sm.next(), 3_203_168_211_198_807_973)
        var x = Xoshiro256(seed: 42)
        var y = Xoshiro256(seed: 42)
        for _ in 0 ..< 100 { XCTAssertEqual(x.next(), y.next()) }
        for _ in 0 ..< 1000 {
            let v = x.below(7)
            XCTAssert(v >= 0 && v < 7)
        }
    }

    // MARK: Counts and layout

    func testMaildirLayoutCountsAndFileNames() throws {
        let c = corpus
        XCTAssertEqual(c.summary.messages, SharedCorpus.size)
        XCTAssertEqual(c.entries.count, SharedCorpus.size, "one file per message")
        XCTAssertEqual(c.summary.bytes, c.entries.reduce(0) { $0 + $1.bytes.count })
        XCTAssertGreaterThan(c.summary.threads, 100)
        XCTAssertLessThan(c.summary.uniqueMessages, c.summary.messages, "cross-posts are extra files")

        let fm = FileManager.default
        let expected = [".Sent", ".Archive", ".Drafts", ".Trash", ".Junk", ".Lists.swift-dev", ".Lists.rust-users",
                        ".Projects.Alpha"]
        for folder in [""] + expected {
            for sub in ["cur", "new", "tmp"] {
                var isDir: ObjCBool = false
                let path = c.root.appendingPathComponent(folder).appendingPathComponent(sub).path
                XCTAssert(fm.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue, "missing \(path)")
            }
            if !folder.isEmpty {
                XCTAssert(fm.fileExists(atPath: c.root.appendingPathComponent(folder)
                    .appendingPathComponent("maildirfolder").path))
                XCTAssert(c.entries.contains { $0.folder == folder }, "no mail in \(folder)")
            }
        }
        let seed = String(SharedCorpus.seed)
        let curPattern = try NSRegularExpression(pattern: "^[0-9]{10}\\.[0-9]+_\(seed)\\.gen:2,D?F?R?S?T?$")
        let newPattern = try NSRegularExpression(pattern: "^[0-9]{10}\\.[0-9]+_\(seed)\\.gen$")
        var slots = Set<Int>()
        for e in c.entries {
            let range = NSRange(e.name.startIndex..., in: e.name)
            let pattern = e.sub == "cur" ? curPattern : newPattern
            XCTAssertNotNil(pattern.firstMatch(in: e.name, range: range), "bad name \(e.sub)/\(e.name)")
            let seq = Int(e.name.split(separator: ".")[1].split(separator: "_")[0])!
            XCTAssert(slots.insert(seq).inserted, "duplicate sequence number \(seq)")
        }
        XCTAssertEqual(slots, Set(0 ..< SharedCorpus.size))
        // INBOX is the largest folder.
        let inbox = c.entries.filter { $0.folder.isEmpty }.count
        for folder in expected {
            XCTAssertGreaterThanOrEqual(inbox, c.entries.filter { $0.folder == folder }.count)
        }
    }

    func testMboxCountsFromLinesAndRoundTrip() throws {
        let dir = temp("mbox")
        let n = 300
        let summary = try generateCorpus(CorpusOptions(messages: n, outputDirectory: dir.path, format: .mbox, seed: 5))
        XCTAssertEqual(summary.messages, n)
        let data = [UInt8](try Data(contentsOf: dir.appendingPathComponent("mbox")))
        XCTAssertEqual(summary.bytes, data.count)
        let lines = splitLines(data)
        let fromPattern = try NSRegularExpression(
            pattern: "^From [^ ]+@[^ ]+ (Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                + "[ 1-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] 20[0-9]{2}$")
        // Split into entries at From_ lines; every line starting "From " must be a separator.
        var entries: [[ArraySlice<UInt8>]] = []
        for line in lines {
            if line.starts(with: Array("From ".utf8)) {
                let s = String(decoding: line, as: UTF8.self)
                XCTAssertNotNil(fromPattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "bad From_ \(s)")
                entries.append([])
            } else {
                XCTAssertFalse(entries.isEmpty, "text before the first From_ line")
                entries[entries.count - 1].append(line)
            }
        }
        XCTAssertEqual(entries.count, n, "one From_ line per message")

        // Undo mboxrd quoting and the Status headers: the stream's bytes come back.
        let stream = CorpusStream(configuration: CorpusConfiguration(messages: n, seed: 5))
        var index = 0
        var sawQuotedFrom = false
        while let m = stream.next() {
            var entry = entries[index]
            XCTAssertEqual(entry.last?.isEmpty, true, "message must be followed by an empty line")
            entry.removeLast()
            var rebuilt: [UInt8] = []
            var inHeader = true
            for line in entry {
                if inHeader && line.isEmpty { inHeader = false }
                if inHeader && (line.starts(with: Array("Status: ".utf8)) || line.starts(with: Array("X-Status: ".utf8))) {
                    continue
                }
                var l = Array(line)
                var j = 0
                while j < l.count && l[j] == UInt8(ascii: ">") { j += 1 }
                if j > 0 && l[j...].starts(with: Array("From ".utf8)) {
                    l.removeFirst()
                    sawQuotedFrom = true
                }
                rebuilt += l
                rebuilt += [13, 10]
            }
            XCTAssertEqual(rebuilt, m.bytes, "mbox entry \(index) does not round-trip")
            let status = entry.first { $0.starts(with: Array("Status: ".utf8)) }
            if m.isNew {
                XCTAssertNil(status)
            } else {
                XCTAssertEqual(status.map { String(decoding: $0, as: UTF8.self) },
                               m.flags.contains(.seen) ? "Status: RO" : "Status: O")
            }
            index += 1
        }
        XCTAssertEqual(index, n)
        XCTAssertTrue(sawQuotedFrom, "expected some quoted From lines in 300 messages")
    }

    func testMboxrdQuotesFromLines() throws {
        let dir = temp("mboxrd")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("mbox").path
        let writer = try MboxWriter(path: path)
        let header = "From: a@example.com\r\nSubject: t\r\n"
        let body = "From me to you\r\n>From quoted\r\n>>From twice\r\nFromage\r\n From indented\r\nFrom\r\nlast\r\n"
        let bytes = Array((header + "\r\n" + body).utf8)
        try writer.write(GeneratedMessage(
            bytes: bytes, headerLength: header.utf8.count, folder: .inbox, flags: [.seen, .replied, .flagged],
            isNew: false, timestamp: 1_704_067_200, envelopeSender: Array("a@example.com".utf8), slot: 0,
            uniqueIndex: 0, threadID: 0, isCopy: false, features: []))
        try writer.close()
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let expected = "From a@example.com Mon Jan  1 00:00:00 2024\r\n" + header
            + "Status: RO\r\nX-Status: AF\r\n\r\n"
            + ">From me to you\r\n>>From quoted\r\n>>>From twice\r\nFromage\r\n From indented\r\nFrom\r\nlast\r\n\r\n"
        XCTAssertEqual(text, expected)
    }

    func testAccountsSplitMessages() throws {
        let dir = temp("accounts")
        let s = try generateCorpus(CorpusOptions(messages: 100, outputDirectory: dir.path, seed: 3, accounts: 3))
        XCTAssertEqual(s.messages, 100)
        var owners = Set<String>()
        for (k, expected) in [34, 33, 33].enumerated() {
            let entries = try readMaildir(dir.appendingPathComponent("account\(k + 1)"))
            XCTAssertEqual(entries.count, expected)
            for e in entries {
                if let d = parseMIME(e.bytes)?.header("Delivered-To") { owners.insert(d) }
            }
        }
        XCTAssertEqual(owners.count, 3, "each account has its own owner")
    }

    func testRefusesNonEmptyOutputDirectory() throws {
        let dir = temp("nonempty")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: dir.appendingPathComponent("file"))
        XCTAssertThrowsError(try generateCorpus(CorpusOptions(messages: 1, outputDirectory: dir.path)))
    }

    // MARK: Message syntax

    func testEveryMessageHasCRLFAndHeaderBodySeparator() {
        for e in corpus.entries {
            let b = e.bytes
            var bareLF = false, bareCR = false, longLine = false
            var lineLength = 0
            for i in b.indices {
                if b[i] == 10 {
                    if i == 0 || b[i - 1] != 13 { bareLF = true }
                    if lineLength > 999 { longLine = true }
                    lineLength = 0
                } else {
                    lineLength += 1
                }
                if b[i] == 13 && (i + 1 == b.count || b[i + 1] != 10) { bareCR = true }
            }
            XCTAssertFalse(bareLF, "\(e.name): bare LF")
            XCTAssertFalse(bareCR, "\(e.name): bare CR")
            XCTAssertFalse(longLine, "\(e.name): line over 998 characters")
            XCTAssertTrue(b.contains("\r\n\r\n"), "\(e.name): no header/body separator")
            XCTAssertEqual(Array(b.suffix(2)), [13, 10], "\(e.name): must end with CRLF")
            guard let (h, _) = splitHeaderBody(b) else { XCTFail("\(e.name): unparsable"); continue }
            for line in splitLines(h) {
                guard let f = line.first else { continue }
                if f == 32 || f == 9 { continue }
                let colon = line.firstIndex(of: UInt8(ascii: ":"))
                XCTAssertNotNil(colon, "\(e.name): header line without colon")
                if let colon {
                    XCTAssert(line[line.startIndex ..< colon].allSatisfy { $0 > 32 && $0 < 127 }, "\(e.name): bad field name")
                }
            }
            let p = parseMIME(b)!
            for name in ["Date", "From", "Subject", "MIME-Version"] {
                XCTAssertNotNil(p.header(name), "\(e.name): missing \(name)")
            }
            XCTAssertNotNil(p.header("Message-ID") ?? p.header("Message-Id"), "\(e.name): missing Message-ID")
        }
    }

    func testMessageIDsDatesAndThreadOrder() throws {
        let c = corpus
        let idPattern = try NSRegularExpression(pattern: "^<[0-9a-f]{16}\\.[0-9]+@[a-z0-9.-]+>$")
        var dateByID: [String: Int] = [:]
        for i in c.unique {
            let p = c.parsed[i]
            let id = p.header("Message-ID") ?? p.header("Message-Id")!
            XCTAssertNotNil(idPattern.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)), "bad id \(id)")
            guard let d = parseRFC5322Date(p.header("Date")!) else {
                XCTFail("unparsable Date \(p.header("Date")!)")
                continue
            }
            XCTAssert(d >= corpusBaseEpoch - 86_400 && d <= corpusBaseEpoch + corpusSpanSeconds + 86_400)
            dateByID[id] = d
        }
        var zones = Set<String>()
        var repliesChecked = 0
        var parentsSeen: [String: Int] = [:]
        var maxReferences = 0
        for i in c.unique {
            let p = c.parsed[i]
            if let z = p.header("Date")?.split(separator: " ").first(where: { $0.hasPrefix("+") || $0.hasPrefix("-") }) {
                zones.insert(String(z))
            }
            let id = p.header("Message-ID") ?? p.header("Message-Id")!
            if let irt = p.header("In-Reply-To"), let parentDate = dateByID[irt] {
                XCTAssertGreaterThan(dateByID[id]!, parentDate, "reply \(id) is not after its parent")
                repliesChecked += 1
                parentsSeen[irt, default: 0] += 1
            }
            if let refs = p.header("References") {
                let ids = refs.split(whereSeparator: { $0 == " " || $0 == "\t" })
                maxReferences = max(maxReferences, ids.count)
                let wellFormed = ids.allSatisfy { $0.hasPrefix("<") && $0.hasSuffix(">") && $0.contains("@") }
                if let irt = p.header("In-Reply-To"), wellFormed {
                    XCTAssertEqual(String(ids.last!), irt, "References must end with the parent")
                }
            }
        }
        XCTAssertGreaterThan(repliesChecked, 500)
        XCTAssertGreaterThanOrEqual(zones.count, 8, "varied time zones: \(zones)")
        XCTAssertGreaterThanOrEqual(maxReferences, 8, "long reply chains expected")
        XCTAssertGreaterThan(parentsSeen.values.filter { $0 >= 2 }.count, 20, "forks: messages with two replies")
    }

    // MARK: Feature mix

    func testFeatureMixInTwoThousandMessages() {
        let c = corpus
        var ids = Set<String>()
        for i in c.unique { ids.insert(c.parsed[i].header("Message-ID") ?? c.parsed[i].header("Message-Id")!) }

        assertShare("multipart/mixed with attachment", share { p, _ in
            p.contentType == "multipart/mixed"
                && p.allParts.contains { ($0.header("Content-Disposition") ?? "").hasPrefix("attachment") }
        }, 0.015, 0.06)
        assertShare("multipart/related inline image", share { p, _ in
            p.allParts.contains { $0.contentType == "multipart/related" }
                && p.allParts.contains { $0.header("Content-ID") != nil && $0.contentType.hasPrefix("image/") }
        }, 0.003, 0.025)
        assertShare("HTML-only", share { p, _ in p.contentType == "text/html" }, 0.02, 0.10)
        assertShare("multipart/alternative", share { p, _ in
            p.allParts.contains { $0.contentType == "multipart/alternative" }
        }, 0.25, 0.80)
        assertShare("non-UTF-8 charset", share { p, _ in
            p.leaves.contains {
                guard let cs = $0.parameter("charset").flatMap(Charset.fromMIMEName) else { return false }
                return cs.isLegacy
            }
        }, 0.03, 0.18)
        assertShare("RFC 2047 encoded words", share { p, _ in
            ["Subject", "From", "To", "Cc"].contains { (p.header($0) ?? "").contains("=?") }
        }, 0.15, 0.85)
        assertShare("encoded subject", share { p, _ in (p.header("Subject") ?? "").contains("=?") }, 0.03, 0.40)
        assertShare("missing parent", share { p, _ in
            if let irt = p.header("In-Reply-To"), irt.hasPrefix("<"), !ids.contains(irt) { return true }
            return false
        }, 0.005, 0.08)
        assertShare("broken References", share { p, _ in
            guard let refs = p.header("References") else { return false }
            return !refs.split(whereSeparator: { $0 == " " || $0 == "\t" })
                .allSatisfy { $0.hasPrefix("<") && $0.hasSuffix(">") && $0.count > 2 && $0.contains("@") }
        }, 0.0005, 0.03)
        assertShare("mailing list", share { p, _ in p.header("List-Id") != nil }, 0.15, 0.45)
        assertShare("reply", share { p, _ in p.header("In-Reply-To") != nil || p.header("References") != nil },
                    0.40, 0.85)
        assertShare("quoted-printable", share { p, _ in p.leaves.contains { $0.transferEncoding == "quoted-printable" } },
                    0.10, 0.90)
        assertShare("base64 text", share { p, _ in
            p.leaves.contains { $0.transferEncoding == "base64" && $0.contentType.hasPrefix("text/") }
        }, 0.01, 0.40)
        assertShare("quoted reply text", share { p, _ in
            p.leaves.contains { leaf in
                leaf.contentType == "text/plain"
                    && String(decoding: leaf.decodedBody ?? [], as: UTF8.self).contains("\r\n> ")
            }
        }, 0.15, 0.80)
        assertShare("signature", share { p, _ in
            p.leaves.contains { String(decoding: $0.decodedBody ?? [], as: UTF8.self).contains("\r\n-- \r\n") }
        }, 0.15, 0.80)
        assertShare("body line starting 'From '", share { p, _ in
            p.leaves.contains { leaf in
                leaf.contentType == "text/plain"
                    && splitLines(leaf.decodedBody ?? []).contains { $0.starts(with: Array("From ".utf8)) }
            }
        }, 0.003, 0.15)

        // Subject prefixes and tags.
        let subjects = c.unique.compactMap { c.parsed[$0].header("Subject") }
        for prefix in ["Re: ", "RE: ", "Fwd: ", "[swift-dev] "] {
            XCTAssert(subjects.contains { $0.contains(prefix) }, "no subject with \(prefix)")
        }
        XCTAssert(subjects.contains { $0.contains("Aw: ") || $0.contains("AW: ") }, "no German reply prefix")
        XCTAssert(subjects.contains { $0.contains("FW: ") || $0.contains("Fw: ") || $0.contains("WG: ") || $0.contains("Fwd: ") })

        // Cross-posts: byte-identical copies in two folders.
        var byID: [String: [Int]] = [:]
        for (i, p) in c.parsed.enumerated() {
            byID[p.header("Message-ID") ?? p.header("Message-Id")!, default: []].append(i)
        }
        let copies = byID.values.filter { $0.count > 1 }
        let crossShare = Double(copies.count) / Double(c.unique.count)
        assertShare("cross-posts", crossShare, 0.01, 0.10)
        var inboxAndList = 0, inboxAndArchive = 0
        for group in copies {
            XCTAssertEqual(group.count, 2)
            let a = c.entries[group[0]], b = c.entries[group[1]]
            XCTAssertEqual(a.bytes, b.bytes, "cross-post copies must be byte-identical")
            XCTAssertNotEqual(a.folder, b.folder, "cross-post copies must be in different folders")
            let folders = Set([a.folder, b.folder])
            if folders.contains("") && (folders.contains(".Lists.swift-dev") || folders.contains(".Lists.rust-users")) {
                inboxAndList += 1
            }
            if folders == Set(["", ".Archive"]) { inboxAndArchive += 1 }
        }
        XCTAssertGreaterThan(inboxAndList, 0, "list mail also in INBOX")
        XCTAssertGreaterThan(inboxAndArchive, 0, "INBOX mail also in Archive")

        // Size: about 3-4 KB on average apart from attachments.
        let plain = c.entries.filter { e in !e.bytes.contains("Content-Disposition: attachment") && !e.bytes.contains("Content-ID:") }
        let average = plain.reduce(0) { $0 + $1.bytes.count } / max(plain.count, 1)
        XCTAssert(average >= 2500 && average <= 4500, "average size without attachments \(average)")
        for i in c.unique {
            for part in c.parsed[i].leaves where (part.header("Content-Disposition") ?? "").hasPrefix("attachment") {
                let n = part.decodedBody?.count ?? 0
                XCTAssert(n >= 5_000 && n <= 200_000, "attachment size \(n)")
            }
        }
    }

    func testFlagsAndFoldersAreRealistic() {
        let c = corpus
        let cur = c.entries.filter { $0.sub == "cur" }
        func flags(_ e: MaildirEntry) -> String { String(e.name.split(separator: ",").last ?? "") }
        let seen = cur.filter { flags($0).contains("S") }.count
        XCTAssertGreaterThan(Double(seen) / Double(cur.count), 0.75, "most mail is seen")
        let flagged = Double(cur.filter { flags($0).contains("F") }.count) / Double(cur.count)
        XCTAssert(flagged > 0.005 && flagged < 0.10, "flagged share \(flagged)")
        XCTAssertGreaterThan(cur.filter { flags($0).contains("R") }.count, 20, "some answered mail")
        let trashed = cur.filter { flags($0).contains("T") }
        XCTAssertFalse(trashed.isEmpty, "some T in Trash")
        XCTAssert(trashed.allSatisfy { $0.folder == ".Trash" }, "T only in Trash")
        let drafts = cur.filter { flags($0).contains("D") }
        XCTAssertFalse(drafts.isEmpty)
        XCTAssert(drafts.allSatisfy { $0.folder == ".Drafts" }, "D only in Drafts")
        XCTAssert(c.entries.filter { $0.folder == ".Drafts" }.allSatisfy { flags($0).contains("D") })
        XCTAssert(c.entries.filter { $0.folder == ".Sent" }.allSatisfy { $0.sub == "cur" && flags($0).contains("S") })
        let new = c.entries.filter { $0.sub == "new" }
        XCTAssertFalse(new.isEmpty, "some unseen mail in new/")
        XCTAssert(new.allSatisfy { !$0.name.contains(":2,") })
        XCTAssert(new.allSatisfy { $0.folder != ".Sent" && $0.folder != ".Drafts" })
        // Sent mail is from the owner; received mail is delivered to the owner.
        let owner = c.parsed[c.entries.firstIndex { $0.folder.isEmpty }!].header("Delivered-To")!
        for (i, e) in c.entries.enumerated() where e.folder == ".Sent" {
            XCTAssert((c.parsed[i].header("From") ?? "").contains(owner))
        }
        // Sizes of folders are plausible.
        let inbox = c.entries.filter { $0.folder.isEmpty }.count
        XCTAssertGreaterThan(Double(inbox) / Double(c.entries.count), 0.2)
        let sent = c.entries.filter { $0.folder == ".Sent" }.count
        XCTAssertGreaterThan(Double(sent) / Double(c.entries.count), 0.05)
    }

    // MARK: Charsets and encodings

    func testTextPartsDecodeInTheirDeclaredCharsets() {
        let c = corpus
        var legacySeen = Set<Charset>()
        var legacyParts = 0, legacyWithNonASCII = 0
        for i in c.unique {
            for leaf in c.parsed[i].leaves where leaf.contentType.hasPrefix("text/") {
                guard let body = leaf.decodedBody else {
                    XCTFail("undecodable transfer encoding in \(c.entries[i].name)")
                    continue
                }
                let name = leaf.parameter("charset") ?? "us-ascii"
                guard let charset = Charset.fromMIMEName(name) else {
                    XCTFail("unexpected charset \(name)")
                    continue
                }
                guard let text = decodeToUTF8(body, from: charset) else {
                    XCTFail("\(c.entries[i].name): body is not valid \(name)")
                    continue
                }
                if charset == .usASCII { XCTAssert(body.allSatisfy { $0 < 128 }, "non-ASCII in us-ascii part") }
                if charset.isLegacy {
                    legacySeen.insert(charset)
                    legacyParts += 1
                    if text.unicodeScalars.contains(where: { $0.value > 127 }) { legacyWithNonASCII += 1 }
                }
                if leaf.transferEncoding == "7bit" { XCTAssert(body.allSatisfy { $0 < 128 }) }
            }
        }
        // Mostly real 8-bit text (a few English mails merely labelled with a legacy charset).
        XCTAssertGreaterThan(Double(legacyWithNonASCII), Double(legacyParts) * 0.8)
        for required in [Charset.iso88591, .windows1252, .koi8r, .shiftJIS, .gb2312] {
            XCTAssert(legacySeen.contains(required), "no \(required) body in the corpus")
        }
    }

    func testEncodedWordsAreWellFormed() throws {
        let c = corpus
        let word = try NSRegularExpression(pattern: "=\\?[^?]+\\?[BbQq]\\?[^?]*\\?=")
        var count = 0
        for i in c.unique {
            for name in ["Subject", "From", "To", "Cc"] {
                guard let value = c.parsed[i].header(name), value.contains("=?") else { continue }
                let matches = word.matches(in: value, range: NSRange(value.startIndex..., in: value))
                XCTAssertFalse(matches.isEmpty, "\(name): \(value)")
                for m in matches { XCTAssertLessThanOrEqual(m.range.length, 75, "encoded word too long: \(value)") }
                let decoded = decodeEncodedWords(value)
                XCTAssertNotNil(decoded, "\(name) does not decode: \(value)")
                XCTAssertFalse(decoded?.contains("=?") ?? true, "\(name) left encoded: \(value)")
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 200)
    }

    func testEncodersRoundTrip() {
        var rng = Xoshiro256(seed: 1)
        for length in 0 ..< 200 {
            var data: [UInt8] = []
            rng.appendBytes(length, to: &data)
            var out: [UInt8] = []
            out.putBase64(data, lineLength: 0)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), Data(data).base64EncodedString())
            var wrapped: [UInt8] = []
            wrapped.putBase64(data)
            XCTAssert(splitLines(wrapped).allSatisfy { $0.count <= 76 })
            XCTAssertEqual([UInt8](Data(base64Encoded: String(decoding: wrapped, as: UTF8.self),
                                        options: .ignoreUnknownCharacters) ?? Data()), data)
        }
        for _ in 0 ..< 200 {
            // Text-like data: random bytes without CR/LF, joined by CRLF.
            var text: [UInt8] = []
            for line in 0 ..< rng.range(1, 5) {
                if line > 0 { text += [13, 10] }
                for _ in 0 ..< rng.range(0, 200) {
                    var b = UInt8(truncatingIfNeeded: rng.next())
                    if b == 13 || b == 10 { b = 32 }
                    text.append(b)
                }
            }
            text += [13, 10]
            var qp: [UInt8] = []
            qp.putQuotedPrintable(text)
            XCTAssert(splitLines(qp).allSatisfy { $0.count <= 76 }, "QP line too long")
            XCTAssert(qp.allSatisfy { $0 < 128 })
            XCTAssertEqual(decodeQuotedPrintable(qp), text)
        }
        for s in ["Katrin Schröder", "Иван Петров", "田中 太郎 さくら 翔太 由美 拓也 花子 美咲 陽子 大輔 直樹", "plain"] {
            for style in [EncodedWordStyle.base64, .q] {
                var out: [UInt8] = []
                out.putEncodedWords(Array(s.utf8), charset: Array("UTF-8".utf8), style: style, utf8: true)
                let v = String(decoding: out, as: UTF8.self)
                for w in v.components(separatedBy: "\r\n ") { XCTAssertLessThanOrEqual(w.count, 75) }
                XCTAssertEqual(decodeEncodedWords(v.replacingOccurrences(of: "\r\n", with: "")), s)
            }
        }
    }

    func testRFC5322DatesAreWellFormed() {
        var out: [UInt8] = []
        out.putRFC5322Date(epoch: corpusBaseEpoch, offsetMinutes: 60, style: .standard)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "Mon, 1 Jan 2024 01:00:00 +0100")
        out = []
        out.putRFC5322Date(epoch: corpusBaseEpoch + 86_400 * 60, offsetMinutes: -330, style: .withComment,
                           zoneComment: Array("XST".utf8))
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "Thu, 29 Feb 2024 18:30:00 -0530 (XST)")
        out = []
        out.putAsctime(epoch: corpusBaseEpoch)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "Mon Jan  1 00:00:00 2024")
        XCTAssertEqual(parseRFC5322Date("Mon, 1 Jan 2024 01:00:00 +0100"), corpusBaseEpoch)
    }
}

