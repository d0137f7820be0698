@testable import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

final class ImportTests: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("import")
        store = try MailStore.create(at: dir.file("store"))
    }

    override func tearDown() {
        store = nil
        dir = nil
    }

    func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: dir.file(path))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func write(_ path: String, _ text: String) throws { try write(path, Array(text.utf8)) }

    func message(_ id: String, subject: String = "Hello", from: String = "Alice <alice@example.com>", extra: String = "") -> String {
        "From: \(from)\r\nTo: bob@example.org\r\nSubject: \(subject)\r\nDate: Mon, 15 Jan 2024 09:30:00 +0000\r\nMessage-ID: <\(id)@example.com>\r\n\(extra)\r\nBody of \(id).\r\n"
    }

    func received() throws -> [EmailReceived] {
        var out: [EmailReceived] = []
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() { out.append(p) }
            return true
        }
        return out
    }

    func folders() throws -> [FolderDiscovered] {
        var out: [FolderDiscovered] = []
        try store.log.scan(filter: ScanFilter(types: [.folderDiscovered])) { ev in
            if case .folderDiscovered(let p) = try ev.decode() { out.append(p) }
            return true
        }
        return out
    }

    func testMaildirFoldersFlagsAndIdempotentReimport() throws {
        try write("md/cur/1700000000.1.host:2,S", message("a"))
        try write("md/cur/1700000001.2.host:2,FRS", message("b"))
        try write("md/new/1700000002.3.host", message("c"))
        try write("md/.Sent/cur/1700000003.4.host:2,S", message("d"))
        try write("md/.Lists.swift-dev/cur/1700000004.5.host:2,T", message("e"))
        try write("md/.Drafts/cur/1700000005.6.host:2,D", message("f"))
        try write("md/tmp/1700000006.7.host", message("tmp-is-skipped"))
        try write("md/dovecot-uidlist", "3 V1 N1\n")
        try write("md/.Sent/maildirfolder", "")
        let importer = try Importer(store: store)
        let s = try importer.importMaildir(dir.file("md"))
        XCTAssertEqual(s.found, 6)
        XCTAssertEqual(s.imported, 6)
        let byID = Dictionary(uniqueKeysWithValues: try received().map { ($0.messageID!, $0) })
        XCTAssertEqual(byID["a@example.com"]?.flags, ["\\Seen"])
        XCTAssertEqual(Set(byID["b@example.com"]!.flags), ["\\Flagged", "\\Answered", "\\Seen"])
        XCTAssertEqual(byID["c@example.com"]?.flags, [])
        XCTAssertEqual(byID["d@example.com"]?.folder, "Sent")
        XCTAssertEqual(byID["e@example.com"]?.folder, "Lists/swift-dev")
        XCTAssertEqual(byID["e@example.com"]?.flags, ["\\Deleted"])
        XCTAssertEqual(byID["f@example.com"]?.flags, ["\\Draft"])
        XCTAssertEqual(byID["a@example.com"]?.sourceLocation, "1700000000.1.host")
        let roles = Dictionary(uniqueKeysWithValues: try folders().map { ($0.folder, $0.role) })
        XCTAssertEqual(roles, ["INBOX": .inbox, "Sent": .sent, "Lists/swift-dev": .custom, "Drafts": .drafts])

        let head = try store.log.head().sequence
        let again = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(again.imported, 0)
        XCTAssertEqual(again.alreadyPresent, 6)
        XCTAssertEqual(try store.log.head().sequence, head, "re-import appends nothing")
        XCTAssertTrue(try store.log.verify().isClean)
    }

    /// A store opened for lookups (`project`) reads its log without the kernel's read-ahead, one page per fault; a
    /// plain open keeps it (scans), an import (`bulk`) goes without. Lookups through it read what a plain open reads.
    func testAStoreOpenedForLookupsReadsItsLogWithoutReadAhead() throws {
        try write("md/cur/1.1.h:2,S", message("look"))
        // A message whose blob is stored over 64 KiB (bytes zstd cannot shrink): read with read-ahead over its pages.
        var rng = SystemRandomNumberGenerator()
        let noise = (0..<120_000).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".randomElement(using: &rng)! }
        let bigText = stride(from: 0, to: noise.count, by: 76).map { String(noise[$0..<min(noise.count, $0 + 76)]) }.joined(separator: "\r\n")
        let big = Array((message("big") + bigText + "\r\n").utf8)
        try write("md/cur/2.1.h:2,S", big)
        _ = try Importer(store: store).importMaildir(dir.file("md"))
        let emailID = try XCTUnwrap(try received().first { $0.messageID == "look@example.com" }).emailID
        let bigBlob = try XCTUnwrap(try received().first { $0.messageID == "big@example.com" }).blob
        let path = dir.file("store")
        let payload = try store.email(id: emailID)?.payload
        let head = try store.head().sequence
        // Each store opened alone: stores of one process on one log share its LMDB handle, opened as the first asked
        // (`EnvironmentHandle`).
        store = nil
        XCTAssertTrue(try MailStore.open(at: path, readOnly: true).log.environment.readsAhead)
        XCTAssertFalse(try MailStore.open(at: path, bulk: true).log.environment.readsAhead)
        let lookups = try MailStore.open(at: path, readOnly: true, lookups: true)
        XCTAssertFalse(lookups.log.environment.readsAhead)
        XCTAssertEqual(try lookups.email(id: emailID)?.payload, payload)
        XCTAssertEqual(try lookups.head().sequence, head)
        XCTAssertEqual(try lookups.blob(bigBlob), big)
        XCTAssertGreaterThanOrEqual(try lookups.log.environment.read { txn in try lookups.log.storedBlob(txn, bigBlob)?.count ?? 0 },
                                    EventLog.readAheadBlobBytes, "stored big enough to be read ahead")
    }

    func testRawBytesAreKeptExactly() throws {
        var bytes = Array(message("raw", extra: "X-Odd: \u{1}\r\n").utf8)
        bytes += [0xFF, 0xFE, 0x00, 0x80, 0x0D, 0x0A] // binary garbage after the body
        try write("md/cur/1.1.h:2,S", bytes)
        _ = try Importer(store: store).importMaildir(dir.file("md"))
        let p = try XCTUnwrap(try received().first)
        XCTAssertEqual(try store.log.blob(p.blob), bytes)
        XCTAssertEqual(p.size, UInt64(bytes.count))
        let email = try XCTUnwrap(try store.email(id: p.emailID))
        XCTAssertEqual(email.payload, p)
    }

    func testHeaderFieldsAndDerivedFields() throws {
        let msg = """
        From: =?UTF-8?B?Sm9zw6kgR2FyY8OtYQ==?= <jose@example.com>\r
        To: "Doe, Jane" <jane@example.com>, bob@example.org\r
        Cc: Team: carol@example.net, dave@example.net;\r
        Subject: =?ISO-8859-1?Q?R=E9union?= de =?ISO-8859-1?Q?l'=E9quipe?=\r
        Date: Tue, 2 Jan 2024 10:00:00 +0100\r
        Message-ID: <m1@example.com>\r
        In-Reply-To: <m0@example.com>\r
        References: <r1@example.com> garbage <m0@example.com>\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="b1"\r
        \r
        --b1\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        See the attached report.\r
        \r
        On Mon, Jan 1, 2024 Bob wrote:\r
        > old text\r
        -- \r
        José\r
        --b1\r
        Content-Type: application/pdf; name="report.pdf"\r
        Content-Disposition: attachment; filename="report.pdf"\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K\r
        --b1--\r

        """
        try write("md/cur/1.1.h:2,", msg)
        _ = try Importer(store: store).importMaildir(dir.file("md"))
        let p = try XCTUnwrap(try received().first)
        XCTAssertEqual(p.from, [EmailAddress(name: "José García", email: "jose@example.com")])
        XCTAssertEqual(p.to.map(\.email), ["jane@example.com", "bob@example.org"])
        XCTAssertEqual(p.to.first?.name, "Doe, Jane")
        XCTAssertEqual(p.cc.map(\.email), ["carol@example.net", "dave@example.net"])
        XCTAssertEqual(p.subject, "Réunion de l'équipe")
        XCTAssertEqual(p.date, Timestamp(microseconds: 1_704_186_000_000_000))
        XCTAssertEqual(p.dateSource, .header)
        XCTAssertEqual(p.inReplyTo, ["m0@example.com"])
        XCTAssertEqual(p.references, ["r1@example.com", "m0@example.com"])
        XCTAssertEqual(p.snippet, "See the attached report.")
        XCTAssertEqual(p.attachments.count, 1)
        XCTAssertEqual(p.attachments.first?.filename, "report.pdf")
        XCTAssertEqual(p.attachments.first?.mimeType, "application/pdf")
        XCTAssertFalse(p.attachments.first!.isInline)
    }

    /// An mbox given as a pipe (no read-ahead to ask the kernel for) imports as the same file does, and a file longer
    /// than the read-ahead window (`Importer.mboxReadAhead`) is imported whole.
    func testAnMboxFromAPipeAndOnePastTheReadAheadWindowImportWhole() throws {
        let body = String(repeating: "a line of text for the read-ahead test\r\n", count: 2_000)  // ~80 KB a message
        let count = Importer.mboxReadAhead / 80_000 + 60
        var mbox = ""
        for i in 0..<count {
            mbox += "From a@example.com Mon Jan 15 09:30:00 2024\r\nFrom: a@example.com\r\nMessage-ID: <r\(i)@x>\r\n\r\n\(body)\r\n"
        }
        try write("long.mbox", mbox)
        XCTAssertGreaterThan(mbox.utf8.count, Importer.mboxReadAhead + (4 << 20))
        let fromFile = try Importer(store: store).importMbox(dir.file("long.mbox"))
        XCTAssertEqual(fromFile.imported, count)

        let other = try MailStore.create(at: dir.file("store-pipe"))
        let fifo = dir.file("in.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let bytes = Array(mbox.utf8)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, min($0.count, 1 << 16)) }
                if n <= 0 { return }
                done += n
            }
        }
        writer.start()
        var options = Importer.Options()
        options.folder = "long"
        let fromPipe = try Importer(store: other, options: options).importMbox(fifo)
        XCTAssertEqual(fromPipe.imported, count)
        XCTAssertEqual(fromPipe.found, fromFile.found)
    }

    func testMboxWithQuotingStatusFlagsAndFromLineDates() throws {
        let mbox = """
        From alice@example.com Mon Jan 15 09:30:00 2024\r
        From: alice@example.com\r
        Subject: first\r
        Message-ID: <m1@x>\r
        Status: RO\r
        X-Status: AF\r
        \r
        Hello\r
        >From the quoted line\r
        \r
        From bob@example.com Tue Jan 16 10:00:00 2024\r
        From: bob@example.com\r
        Subject: second, no date header\r
        Message-ID: <m2@x>\r
        \r
        Body two\r

        """
        try write("list.mbox", mbox)
        let s = try Importer(store: store).importMbox(dir.file("list.mbox"))
        XCTAssertEqual(s.imported, 2)
        let r = try received()
        XCTAssertEqual(r.map(\.folder), ["list", "list"])
        XCTAssertEqual(Set(r[0].flags), ["\\Seen", "\\Answered", "\\Flagged"])
        XCTAssertEqual(r[1].flags, [])
        XCTAssertEqual(r[1].dateSource, .fallback)
        XCTAssertEqual(r[1].date.iso8601, "2024-01-16T10:00:00.000Z")
        let raw = try XCTUnwrap(try store.log.blob(r[0].blob))
        let text = String(decoding: raw, as: UTF8.self)
        XCTAssertTrue(text.contains("\r\nFrom the quoted line"), "mboxrd quoting is undone")
        XCTAssertFalse(text.hasPrefix("From "), "the From_ line is not part of the message")
        XCTAssertEqual(try Importer(store: store).importMbox(dir.file("list.mbox")).imported, 0, "idempotent")
    }

    func testBadMailIsImportedWithWarningsAndNeverStopsTheImport() throws {
        var rng = SystemRandomNumberGenerator()
        try write("md/cur/01.no-separator:2,", "From: a@example.com\r\nSubject: no body separator and no end")
        try write("md/cur/02.garbage:2,", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) })
        try write("md/cur/03.nul:2,", Array("From: a@example.com\r\nSubject: nul\u{0}bytes\r\n\r\nbody\u{0}\u{0}\r\n".utf8))
        try write("md/cur/04.longheader:2,", "X-Long: " + String(repeating: "a", count: 10_000_000) + "\r\nSubject: long\r\n\r\nbody\r\n")
        try write("md/cur/05.boundary:2,", "Subject: broken\r\nContent-Type: multipart/mixed; boundary=\"nope\"\r\n\r\n--other\r\nno boundary ever\r\n")
        try write("md/cur/06.charset:2,", "Subject: lying\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nCaf\u{E9} na\u{EF}ve\r\n")
        try write("md/cur/07.empty:2,", "")
        var big = Array("Subject: big\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee attachment\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=big.bin\r\n\r\n".utf8)
        let line = Array(String(repeating: "QUJD", count: 19).utf8) + [13, 10]
        for _ in 0..<(50_000_000 / 57) { big += line }
        big += Array("--b--\r\n".utf8)
        try write("md/cur/08.big:2,", big)
        try write("md/cur/09.fine:2,S", message("fine"))
        // The 50 MB attachment makes a 68 MB message, over the default 64 MiB limit (tested in
        // ImportTests+Limits): this test raises it.
        var options = Importer.Options()
        options.maxMessageBytes = 128 << 20
        let s = try Importer(store: store, options: options).importMaildir(dir.file("md"))
        XCTAssertEqual(s.found, 9)
        XCTAssertEqual(s.imported, 9, "every message is imported")
        XCTAssertGreaterThanOrEqual(s.malformed, 4)
        XCTAssertNotNil(s.warnings["noHeaderBodySeparator"])
        XCTAssertNotNil(s.warnings["nulBytes"])
        XCTAssertNotNil(s.warnings["headerTooLong"])
        XCTAssertNotNil(s.warnings["brokenBoundary"])
        let r = Dictionary(uniqueKeysWithValues: try received().map { ($0.sourceLocation!, $0) })
        let bigAttachment = try XCTUnwrap(r["08.big"]?.attachments.first)
        XCTAssertEqual(bigAttachment.size, UInt64(50_000_000 / 57 * 57), "decoded size: 57 bytes per 76-character base64 line")
        XCTAssertEqual(r["06.charset"]?.snippet, "Café naïve")
        XCTAssertFalse(r["04.longheader"]!.warnings.isEmpty)
        XCTAssertEqual(try store.log.blob(r["08.big"]!.blob)?.count, big.count, "the 50 MB message is kept whole")
        XCTAssertTrue(try store.log.verify().isClean)
    }

    func testMissingSourceIsAClearError() throws {
        XCTAssertThrowsError(try Importer(store: store).importMaildir(dir.file("nope"))) {
            XCTAssertTrue("\($0)".contains("cannot read"))
        }
        XCTAssertThrowsError(try Importer(store: store).importMbox(dir.file("nope.mbox")))
    }
}
