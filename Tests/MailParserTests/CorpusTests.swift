import Foundation
import XCTest
@testable import MailParser

final class CorpusTests: XCTestCase {
    private let root = "/work/shared/corpora"

    private func files(under dir: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            let path = dir + "/" + rel
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue { out.append(path) }
        }
        return out.sorted()
    }

    /// Whether the raw header section (up to the first blank line) has a
    /// `Message-ID:` or `From:` field, found by a naive line scan.
    private func rawHasIDOrFrom(_ data: [UInt8]) -> Bool {
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let l = line.hasSuffix("\r") ? line.dropLast() : line
            if l.isEmpty { break }
            let lower = l.lowercased()
            if lower.hasPrefix("message-id:") || lower.hasPrefix("from:") { return true }
        }
        return false
    }

    func testMaildirCorporaParse() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: root), "no shared corpora")
        var parsed = 0
        for sub in ["notmuch-default", "notmuch-threading"] {
            for path in files(under: root + "/" + sub) {
                let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let m = MailParser.parse(data)
                XCTAssertTrue(m.messageID != nil || !m.from.isEmpty, path)
                XCTAssertTrue(rawHasIDOrFrom(data), path)
                XCTAssertLessThanOrEqual(m.snippet.count, 100, path)
                parsed += 1
            }
        }
        XCTAssertGreaterThan(parsed, 0)
    }

    func testMboxCorpusSplitsAndParses() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: root + "/list-mbox"), "no shared corpora")
        let mboxes = files(under: root + "/list-mbox").filter { $0.hasSuffix(".mbox") }
        XCTAssertFalse(mboxes.isEmpty)
        for path in mboxes {
            let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let fromLines = data.withUnsafeBufferPointer { buf -> Int in
                var n = 0
                var atLineStart = true
                var prevBlank = true
                var lineStart = 0
                for i in 0..<buf.count {
                    if atLineStart && prevBlank && i + 5 <= buf.count && Array(buf[i..<(i + 5)]) == Array("From ".utf8) { n += 1 }
                    atLineStart = buf[i] == 0x0A
                    if atLineStart {
                        let len = i - lineStart
                        prevBlank = len == 0 || (len == 1 && buf[i - 1] == 0x0D)
                        lineStart = i + 1
                    }
                }
                return n
            }
            for chunkSize in [1 << 20, 4_093] {
                var splitter = MboxSplitter()
                var messages: [MboxMessage] = []
                var i = 0
                while i < data.count {
                    let end = min(data.count, i + chunkSize)
                    messages += splitter.feed(Array(data[i..<end]))
                    i = end
                }
                messages += splitter.finish()
                XCTAssertEqual(messages.count, fromLines, path)
                for msg in messages {
                    let m = MailParser.parse(msg.bytes, fallbackDate: msg.envelopeDate)
                    // The archive holds header-less stubs (only Archived-At):
                    // those cannot have either; every other message must.
                    XCTAssertEqual(m.messageID != nil || !m.from.isEmpty, rawHasIDOrFrom(msg.bytes), path)
                    XCTAssertNotNil(m.date, path)
                    XCTAssertNotNil(msg.envelopeDate, path)
                }
            }
        }
    }
}
