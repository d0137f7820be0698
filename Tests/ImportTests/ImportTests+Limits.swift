import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// Import's bounds: a message over the size limit is skipped with a warning, and devices are refused.
extension ImportTests {
    private func sizedMessage(_ id: String, bodyBytes: Int) -> String {
        "From: a@example.com\nSubject: \(id)\nMessage-ID: <\(id)@example.com>\n\n" + String(repeating: "y", count: bodyBytes) + "\n"
    }

    func testAnMboxMessageOverTheLimitIsSkippedAndTheOthersImported() throws {
        let mbox = ["a", "huge", "c"].map { id in
            "From a@example.com Mon Jan  1 00:00:00 2024\n" + sizedMessage(id, bodyBytes: id == "huge" ? 200_000 : 100) + "\n"
        }.joined()
        let file = dir.file("in.mbox")
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: file))
        var options = Importer.Options()
        options.maxMessageBytes = 10_000
        let summary = try Importer(store: store, options: options).importMbox(file)
        XCTAssertEqual(summary.found, 3)
        XCTAssertEqual(summary.imported, 2)
        XCTAssertEqual(summary.tooLarge.count, 1)
        XCTAssertTrue(summary.tooLarge[0].hasPrefix("#2: "), summary.tooLarge[0])
        // Importing again appends nothing and skips the same message.
        let again = try Importer(store: store, options: options).importMbox(file)
        XCTAssertEqual(again.imported, 0)
        XCTAssertEqual(again.alreadyPresent, 2)
        XCTAssertEqual(again.tooLarge.count, 1)
        XCTAssertTrue(try store.log.verify().isClean)
    }

    func testAMaildirMessageOverTheLimitIsSkipped() throws {
        let cur = dir.file("md/cur")
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        try Data(sizedMessage("small", bodyBytes: 10).utf8).write(to: URL(fileURLWithPath: cur + "/1.a.host:2,S"))
        try Data(sizedMessage("large", bodyBytes: 50_000).utf8).write(to: URL(fileURLWithPath: cur + "/2.b.host:2,S"))
        var options = Importer.Options()
        options.maxMessageBytes = 10_000
        let summary = try Importer(store: store, options: options).importMaildir(dir.file("md"))
        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.tooLarge.count, 1)
        XCTAssertTrue(summary.tooLarge[0].hasPrefix("INBOX/2.b.host: "), summary.tooLarge[0])
    }

    /// A folder of oversized messages: each is skipped and named, chunks stay at most `batchMessages` entries
    /// (skipped ones included), and the messages among them are imported.
    func testManyOversizedMaildirMessagesAreSkippedAcrossChunks() throws {
        let cur = dir.file("big/cur")
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        for i in 0..<25 {
            let big = i % 5 != 0
            try Data(sizedMessage("m\(i)", bodyBytes: big ? 20_000 : 10).utf8)
                .write(to: URL(fileURLWithPath: cur + "/\(1_000 + i).x.host:2,S"))
        }
        var options = Importer.Options()
        options.maxMessageBytes = 10_000
        options.batchMessages = 4
        let summary = try Importer(store: store, options: options).importMaildir(dir.file("big"))
        XCTAssertEqual(summary.imported, 5)
        XCTAssertEqual(summary.tooLarge.count, 20)
        XCTAssertEqual(Set(summary.tooLarge.map { String($0.prefix { $0 != ":" }) }).count, 20)
        XCTAssertTrue(try store.log.verify().isClean)
    }

    /// A folder listing more file-name bytes than the bound is refused, saying which and what to do, and
    /// nothing of it is imported; the same folder under the bound imports whole.
    func testAMaildirFolderWithTooManyNamesIsRefusedClearly() throws {
        let cur = dir.file("md/cur")
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        for i in 0..<40 {
            try Data(sizedMessage("m\(i)", bodyBytes: 10).utf8).write(to: URL(fileURLWithPath: cur + "/\(1000 + i).abcdef.host:2,S"))
        }
        let before = try store.log.head().sequence
        var options = Importer.Options()
        options.maxFolderNameBytes = 500
        XCTAssertThrowsError(try Importer(store: store, options: options).importMaildir(dir.file("md"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(cur) && text.contains("500 bytes") && text.contains("split the folder"), text)
        }
        XCTAssertEqual(try store.log.head().sequence, before, "nothing appended")
        options.maxFolderNameBytes = 1_000
        XCTAssertEqual(try Importer(store: store, options: options).importMaildir(dir.file("md")).imported, 40)
    }

    func testADeviceIsRefusedAsAnMboxSource() throws {
        XCTAssertThrowsError(try Importer(store: store).importMbox("/dev/zero")) { error in
            XCTAssertTrue("\(error)".contains("not an mbox file"), "\(error)")
        }
    }
}
