import Foundation
import MailStore
import XCTest

/// Files given as an mbox that are not what mbox says: a compressed file, or one not beginning with a From_ line, is
/// refused before anything is stored (it was read as one junk message without a word); a UTF-8 byte-order mark before
/// the first From_ line is skipped (it made the first message junk); lines ending in CR alone (old Mac OS) are read as
/// lines (the whole file was one message).
extension ImportTests {
    private func refusal(_ name: String, _ bytes: [UInt8]) throws -> ImportError? {
        try write(name, bytes)
        var error: ImportError?
        XCTAssertThrowsError(try Importer(store: store).importMbox(dir.file(name))) { error = $0 as? ImportError }
        XCTAssertEqual(try received().count, 0, "\(name): nothing stored")
        XCTAssertEqual(try folders().count, 0, "\(name): no folder discovered")
        return error
    }

    func testACompressedMboxIsRefusedNamingItsFormatBeforeAnythingIsStored() throws {
        let files: [(String, [UInt8], String, String)] = [
            ("a.mbox.gz", [0x1F, 0x8B, 0x08, 0x00, 0x00], "gzip", "gzip -dc '\(dir.file("a.mbox.gz"))' > '\(dir.file("a.mbox"))'"),
            ("b.mbox.bz2", Array("BZh91AY&SY".utf8), "bzip2", "bzip2 -dc '\(dir.file("b.mbox.bz2"))' > '\(dir.file("b.mbox"))'"),
            ("c.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04], "xz", "xz -dc '\(dir.file("c.xz"))' > '\(dir.file("c"))'"),
            ("d.mbox", [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x00], "zstd", "zstd -dc '\(dir.file("d.mbox"))' > '\(dir.file("d.mbox.mbox"))'"),
        ]
        for (name, bytes, format, command) in files {
            let error = try refusal(name, bytes + Array(repeating: 0x41, count: 100))
            XCTAssertEqual(error, .compressedMbox(path: dir.file(name), format: format, command: command))
            XCTAssertTrue(error?.description.contains("it is \(format)-compressed, not an mbox; decompress it first") == true,
                          error?.description ?? "")
        }
    }

    func testAFileNotBeginningWithAFromLineIsRefusedAsNotAnMbox() throws {
        let lone = try refusal("lone.eml", Array(("Return-Path: <a@example.com>\n" + message("lone")).utf8))
        guard case .notAnMbox(_, let begins, let advice) = lone else { return XCTFail("\(String(describing: lone))") }
        XCTAssertEqual(begins, "a header line (`Return-Path:`), as a single message does")
        XCTAssertTrue(advice.contains("a lone message needs a From_ line before it") && advice.contains("--maildir"), advice)
        let text = try refusal("notes.txt", Array("\n\nhello \u{1B}[2Jthere\nFrom a@example.com Mon Jan  1 10:00:00 2024\n".utf8))
        guard case .notAnMbox(_, let textBegins, _) = text else { return XCTFail("\(String(describing: text))") }
        XCTAssertEqual(textBegins, "`hello there`", "the line, made safe for a terminal")
        let binary = try refusal("x.zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00])
        guard case .notAnMbox(_, let binaryBegins, _) = binary else { return XCTFail("\(String(describing: binary))") }
        XCTAssertEqual(binaryBegins, "binary data (50 4b 03 04 14 00 00 00)")
        let utf16 = try refusal("u.mbox", [0xFF, 0xFE] + Array("From a".utf8).flatMap { [$0, 0] })
        guard case .notAnMbox(_, let utf16Begins, _) = utf16 else { return XCTFail("\(String(describing: utf16))") }
        XCTAssertEqual(utf16Begins, "a UTF-16 byte-order mark")
        // Blank lines before the first From_ line are fine, and an empty file is an mbox of no messages.
        try write("blank.mbox", "\n\r\nFrom a@example.com Mon Jan  1 10:00:00 2024\n" + message("blank"))
        XCTAssertEqual(try Importer(store: store).importMbox(dir.file("blank.mbox")).imported, 1)
        try write("empty.mbox", "")
        XCTAssertEqual(try Importer(store: store).importMbox(dir.file("empty.mbox")).found, 0)
    }

    func testAByteOrderMarkBeforeTheFirstFromLineIsSkipped() throws {
        let first = message("bom1"), second = message("bom2")
        try write("bom.mbox", [0xEF, 0xBB, 0xBF] + Array(("From a@example.com Mon Jan  1 10:00:00 2024\n" + first
                                                          + "\nFrom b@example.com Mon Jan  1 10:01:00 2024\n" + second).utf8))
        let s = try Importer(store: store).importMbox(dir.file("bom.mbox"))
        XCTAssertEqual(s.imported, 2)
        let emails = try received()
        XCTAssertEqual(emails.map(\.messageID), ["bom1@example.com", "bom2@example.com"])
        XCTAssertEqual(try store.blob(emails[0].blob), Array(first.utf8), "no mark and no From_ line in the message")
        XCTAssertEqual(try Importer(store: store).importMbox(dir.file("bom.mbox")).imported, 0, "importing again appends nothing")
    }

    func testLinesEndingInCRAloneAreReadAsLines() throws {
        // Old Mac OS mail (Eudora, Mac OS 9): every line ends in CR. A message past the first chunk too.
        let long = "Subject: long\n" + String(repeating: "a line of the long message\n", count: 60_000)
        let lf = "From a@example.com Mon Jan  1 10:00:00 2024\nFrom: a@example.com\nMessage-ID: <cr1@x>\nSubject: one\n\nbody one\n"
            + ">From here\n\nFrom b@example.com Mon Jan  1 10:01:00 2024\nFrom: b@example.com\nMessage-ID: <cr2@x>\n" + long
            + "\nbody two\n\nFrom c@example.com Mon Jan  1 10:02:00 2024\nFrom: c@example.com\nMessage-ID: <cr3@x>\nSubject: three\n\nbody three"
        try write("mac.mbox", Array(lf.replacingOccurrences(of: "\n", with: "\r").utf8))
        let s = try Importer(store: store).importMbox(dir.file("mac.mbox"))
        XCTAssertEqual(s.imported, 3)
        let emails = try received()
        XCTAssertEqual(emails.map(\.messageID), ["cr1@x", "cr2@x", "cr3@x"])
        XCTAssertEqual(emails.map(\.subject), ["one", "long", "three"])
        XCTAssertEqual(try store.blob(emails[0].blob), Array("From: a@example.com\nMessage-ID: <cr1@x>\nSubject: one\n\nbody one\nFrom here\n".utf8),
                       "stored with LF line ends, the >From quoting undone")
        XCTAssertEqual(try Importer(store: store).importMbox(dir.file("mac.mbox")).imported, 0, "importing again appends nothing")
    }
}
