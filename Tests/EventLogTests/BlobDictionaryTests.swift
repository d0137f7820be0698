import EventLog
import EventModel
import Foundation
import LMDB
import NativeCodecs
import TestSupport
import XCTest

final class BlobDictionaryTests: EventLogTestCase {
    /// Mail-like messages that share most of their header lines, as a list's messages do.
    func message(_ i: Int) -> [UInt8] {
        var s = "Return-Path: <list-bounces+\(i)@lists.example.org>\r\nReceived: from mx\(i % 7).example.org (mx.example.org [192.0.2.\(i % 250)])\r\n"
        s += "\tby mail.example.net with ESMTPS id \(i * 7919); Tue, 3 Mar 2026 10:\(10 + i % 50):00 +0000\r\n"
        s += "From: Member \(i % 13) <member\(i % 13)@example.com>\r\nTo: discussion@lists.example.org\r\n"
        s += "Subject: [discussion] Re: Meeting minutes, item \(i % 17)\r\nList-Id: Discussion <discussion.lists.example.org>\r\n"
        s += "List-Unsubscribe: <https://lists.example.org/mailman/options/discussion>\r\nMIME-Version: 1.0\r\n"
        s += "Content-Type: text/plain; charset=utf-8\r\nMessage-ID: <\(i).\(i * 31)@example.com>\r\n\r\n"
        s += "Hello all,\r\n\r\nAs discussed in the meeting on item \(i % 17), the proposal stands. Number \(i * 104_729).\r\n"
        s += "_______________________________________________\r\ndiscussion mailing list\r\ndiscussion@lists.example.org\r\n"
        s += "https://lists.example.org/mailman/listinfo/discussion\r\n"
        return Array(s.utf8)
    }

    func testDictionaryBlobsReadBackExactlyBesideOlderBlobs() throws {
        let log = try openLog()
        let plain = try log.prepareBlob(message(0))
        try log.append([], blobs: [plain])
        XCTAssertNil(try log.blobDictionary(account: "a"))
        let dict = try XCTUnwrap(try log.trainBlobDictionary(account: "a", samples: (1...400).map(message)))
        XCTAssertEqual(dict.id, 1)
        let withDict = try (1...50).map { i in try message(i + 1000).withUnsafeBytes { try log.prepareBlob($0, dictionary: dict) } }
        let without = try (1...50).map { try log.prepareBlob(message($0 + 1000)) }
        try log.append([], blobs: withDict)
        XCTAssertLessThan(withDict.map(\.storedSize).reduce(0, +) * 2, without.map(\.storedSize).reduce(0, +),
                          "the dictionary at least halves these messages' stored size")
        // A second dictionary for the account: blobs of the first stay readable.
        let second = try XCTUnwrap(try log.trainBlobDictionary(account: "a", samples: (2000...2400).map(message)))
        XCTAssertEqual(second.id, 2)
        XCTAssertEqual(try log.blobDictionary(account: "a")?.id, 2)
        XCTAssertNil(try log.blobDictionary(account: "b"))
        let reopened = try openLog()
        XCTAssertEqual(try reopened.blob(plain.hash), message(0))
        for (i, b) in withDict.enumerated() { XCTAssertEqual(try reopened.blob(b.hash), message(i + 1001)) }
        let report = try reopened.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.dictionariesChecked, 2)
        XCTAssertEqual(report.blobsChecked, 51)
    }

    /// Training is deterministic (the same samples make the same dictionary, whatever ran before), and the dictionary
    /// compresses mail like the samples better than zstd alone, reading back exactly.
    func testTrainingMakesTheSameDictionaryEachTimeAndItCompresses() throws {
        let samples = (0..<300).map(message)
        let capacity = BlobDictionary.capacity(sampleBytes: samples.reduce(0) { $0 + $1.count })
        let one = try XCTUnwrap(ZstdDictionary.train(samples: samples, capacity: capacity))
        _ = ZstdDictionary.train(samples: (500..<700).map(message), capacity: 8_192)
        let two = try XCTUnwrap(ZstdDictionary.train(samples: samples, capacity: capacity))
        XCTAssertEqual(two, one)
        XCTAssertLessThanOrEqual(one.count, capacity)
        let dictionary = try ZstdDictionary(bytes: two, level: BlobDictionary.level)
        let zstd = try Zstd()
        for raw in [message(1_000), message(123_456)] {
            let packed = try raw.withUnsafeBytes { try zstd.compress($0, dictionary: dictionary) }
            let plain = try raw.withUnsafeBytes { try zstd.compress($0) }
            XCTAssertLessThan(packed.count * 2, plain.count, "the dictionary at least halves a message like its samples")
            XCTAssertEqual(try packed.withUnsafeBytes { try zstd.decompress($0, expectedSize: raw.count, dictionary: dictionary) }, raw)
        }
    }

    func testTooFewSamplesTrainNothing() throws {
        let log = try openLog()
        XCTAssertNil(try log.trainBlobDictionary(account: "a", samples: (1...5).map(message)))
        XCTAssertEqual(try log.dictionaryCount(), 0)
    }

    func testDamagedDictionaryIsReportedAndItsBlobsFailLoudly() throws {
        let hash: BlobHash
        do {
            let log = try openLog()
            let dict = try XCTUnwrap(try log.trainBlobDictionary(account: "a", samples: (1...400).map(message)))
            let b = try message(7).withUnsafeBytes { try log.prepareBlob($0, dictionary: dict) }
            try log.append([], blobs: [b])
            hash = b.hash
            let meta = try log.environment.openDatabase("meta")
            let key = Array("blob_dict#".utf8) + [0, 0, 0, 1]
            try log.environment.write { txn in
                var stored = try XCTUnwrap(try txn.getBytes(meta, key: key))
                stored[stored.count / 2] ^= 0x01
                _ = try txn.put(meta, key: key, value: stored)
            }
        }
        let log = try openLog()
        XCTAssertThrowsError(try log.blob(hash)) { XCTAssertTrue("\($0)".contains("dictionary 1")) }
        let report = try log.verify()
        XCTAssertFalse(report.isClean)
        XCTAssertTrue(report.problems.contains { $0.message.contains("dictionary 1") && $0.message.contains("SHA-256") }, "\(report.problems)")
        XCTAssertTrue(report.problems.contains { $0.message.contains("dictionary 1, which is missing or damaged") }, "the blob is named too: \(report.problems)")
    }
}
