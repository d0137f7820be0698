import CorpusGenerator
import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// Imports generated mailboxes big enough to run many chunks through the parallel, pipelined importer.
final class GeneratedCorpusImportTests: XCTestCase {
    func testEveryGeneratedMessageIsImportedOnceWhateverTheBatchSize() throws {
        let dir = TemporaryDirectory("gen-import")
        let summary = try generateCorpus(CorpusOptions(messages: 3000, outputDirectory: dir.file("md"), seed: 7))
        XCTAssertEqual(summary.messages, 3000)
        for batch in [17, 256] {
            let store = try MailStore.create(at: dir.file("store-\(batch)"))
            var options = Importer.Options()
            options.batchMessages = batch
            let first = try Importer(store: store, options: options).importMaildir(dir.file("md"))
            XCTAssertEqual(first.found, 3000)
            XCTAssertEqual(first.imported, 3000, "batch \(batch): every message imported once")
            XCTAssertEqual(first.alreadyPresent, 0)
            XCTAssertTrue(first.unreadable.isEmpty)
            let head = try store.log.head().sequence
            let again = try Importer(store: store, options: options).importMaildir(dir.file("md"))
            XCTAssertEqual(again.imported, 0)
            XCTAssertEqual(again.alreadyPresent, 3000)
            XCTAssertEqual(try store.log.head().sequence, head)
            let s = try store.log.stats()
            XCTAssertEqual(s.blobs, UInt64(summary.uniqueMessages), "cross-posted copies share one blob")
            XCTAssertEqual(s.dictionaries, 1, "batch \(batch): one blob dictionary, trained on the first chunk, not again")
            XCTAssertNotNil(try store.log.blobDictionary(account: "local"))
            let report = try store.log.verify()
            XCTAssertTrue(report.isClean, "\(report.problems)")
            XCTAssertEqual(report.dictionariesChecked, 1)
        }
    }

    func testGeneratedMboxImportsEveryMessage() throws {
        let dir = TemporaryDirectory("gen-mbox")
        _ = try generateCorpus(CorpusOptions(messages: 1500, outputDirectory: dir.file("out"), format: .mbox, seed: 3))
        let store = try MailStore.create(at: dir.file("store"))
        var options = Importer.Options()
        options.batchMessages = 100
        let s = try Importer(store: store, options: options).importMbox(dir.file("out/mbox"))
        XCTAssertEqual(s.found, 1500)
        XCTAssertEqual(s.imported, 1500)
    }
}
