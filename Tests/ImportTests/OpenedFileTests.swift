import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// The Maildir listing hands the files it opened to their readers (`OpenedFile`): read through that descriptor from
/// the start, closed with the last copy of the message, never more open than the bound; and a name that is not a
/// regular file is refused rather than waited on.
final class OpenedFileTests: FolderTestCase {
    /// The process's open descriptors.
    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    private func writeMessages(_ n: Int) throws -> [String: String] {
        let cur = dir.file("md/cur")
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        var bodies: [String: String] = [:]
        for i in 0..<n {
            let text = "Subject: \(i)\nMessage-ID: <\(i)@example.org>\n\n" + String(repeating: "line \(i)\n", count: i + 1)
            try Data(text.utf8).write(to: URL(fileURLWithPath: cur + "/170000000\(i).\(i).host:2,S"))
            bodies["170000000\(i).\(i).host"] = text
        }
        return bodies
    }

    func testAListedMessageIsReadThroughItsListingsDescriptorAndClosedWithIt() throws {
        let bodies = try writeMessages(5)
        // Not messages: a folder and a FIFO where files are; opened to be looked at, then closed, never listed.
        try FileManager.default.createDirectory(atPath: dir.file("md/cur/1700000009.9.host:2,S"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(dir.file("md/cur/1700000008.8.host:2,S"), 0o600), 0)
        let before = (files: OpenedFile.count, descriptors: openDescriptors())
        var source = MaildirSource(root: dir.file("md"))
        source.prefetchLimit = 1 << 20
        let listing = try XCTUnwrap(try source.scan().first)
        var held: [SourceMessage] = []
        try source.messages(of: listing, chunk: 2) { m, _ in held += m }
        XCTAssertEqual(held.count, 5)
        XCTAssertEqual(OpenedFile.count, before.files + 5, "each listed message keeps its descriptor until it is read")
        XCTAssertEqual(openDescriptors(), before.descriptors + 5)
        for m in held {
            guard case .opened(let file, let path) = m.content else { return XCTFail("\(m.location) was not handed on open") }
            XCTAssertTrue(path.hasSuffix(m.location + ":2,S"), path)
            // Read from the start whatever the descriptor's offset.
            lseek(file.fd, 7, SEEK_SET)
            XCTAssertEqual(String(decoding: try MessageIngest.bytes(of: m), as: UTF8.self), bodies[m.location])
            XCTAssertEqual(String(decoding: try MessageIngest.bytes(of: m), as: UTF8.self), bodies[m.location], "read again")
        }
        held = []
        XCTAssertEqual(OpenedFile.count, before.files, "closed with the last copy of their messages")
        XCTAssertEqual(openDescriptors(), before.descriptors)

        // A whole import leaves none open.
        let store = try MailStore.create(at: dir.file("store"))
        var options = Importer.Options()
        options.batchMessages = 2
        let summary = try Importer(store: store, options: options).importMaildir(dir.file("md"))
        XCTAssertEqual(summary.imported, 5)
        XCTAssertEqual(OpenedFile.count, before.files)
    }

    func testPastTheBoundTheListingsDescriptorIsNotTakenAndTheReaderOpensThePath() throws {
        let bodies = try writeMessages(2)
        let fd = open(dir.file("md/cur"), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let at = OpenedFile.count
        XCTAssertNil(OpenedFile.adopt(fd, limit: at), "none past the bound")
        XCTAssertEqual(OpenedFile.count, at)
        XCTAssertEqual(fcntl(fd, F_GETFD), FD_CLOEXEC, "the caller's descriptor is left open to it")
        close(fd)
        XCTAssertNil(OpenedFile.adopt(-1))
        XCTAssertGreaterThanOrEqual(OpenedFile.limit, 1)

        // With no prefetch, no descriptor is handed on: read by path.
        var source = MaildirSource(root: dir.file("md"))
        source.prefetchLimit = 0
        let listing = try XCTUnwrap(try source.scan().first)
        var held: [SourceMessage] = []
        try source.messages(of: listing, chunk: 10) { m, _ in held += m }
        for m in held {
            guard case .file = m.content else { return XCTFail("\(m.location) was handed on open") }
            XCTAssertEqual(String(decoding: try MessageIngest.bytes(of: m), as: UTF8.self), bodies[m.location])
        }
    }

    /// A message file that grew after its size was checked against the limit is refused (its read is bounded by the
    /// size listed), through the listing's descriptor or by path; one that shrank gives what it has.
    func testAFileThatGrewSinceItWasListedIsRefusedAndOneThatShrankIsRead() throws {
        _ = try writeMessages(3)
        for prefetch in [1 << 20, 0] {
            var source = MaildirSource(root: dir.file("md"))
            source.prefetchLimit = prefetch
            let listing = try XCTUnwrap(try source.scan().first)
            var held: [SourceMessage] = []
            try source.messages(of: listing, chunk: 10) { m, _ in held += m }
            XCTAssertEqual(held.count, 3)
            let grown = dir.file("md/cur/" + held[0].location + ":2,S"), shrunk = dir.file("md/cur/" + held[1].location + ":2,S")
            let original = try Data(contentsOf: URL(fileURLWithPath: grown))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: grown))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0x41, count: 1 << 20))
            try handle.close()
            XCTAssertThrowsError(try MessageIngest.bytes(of: held[0]), "prefetch \(prefetch)") { error in
                guard case ImportError.unreadable(_, let reason) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.hasPrefix("it grew from \(original.count) to \(original.count + (1 << 20)) bytes"), reason)
            }
            XCTAssertEqual(truncate(shrunk, 10), 0)
            XCTAssertEqual(try MessageIngest.bytes(of: held[1]).count, 10, "prefetch \(prefetch)")
            XCTAssertEqual(try MessageIngest.bytes(of: held[2]).count, held[2].size)
            // Put back for the next round.
            try original.write(to: URL(fileURLWithPath: grown))
            _ = try writeMessages(3)
        }
    }

    /// Another process may put a FIFO or a device where a message was: refused at once, never waited on.
    func testANameThatIsNotARegularFileIsRefusedNotWaitedOn() throws {
        let fifo = dir.file("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let started = Date()
        XCTAssertThrowsError(try MessageIngest.readFile(fifo)) { error in
            guard case ImportError.unreadable(let path, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, fifo)
            XCTAssertEqual(reason, "not a regular file")
        }
        let fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertThrowsError(try MessageIngest.read(fd, path: fifo))
        XCTAssertThrowsError(try MessageIngest.readFile("/dev/zero"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "nothing waited for a writer")
    }
}
