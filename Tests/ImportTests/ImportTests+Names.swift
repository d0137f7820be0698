import Foundation
import MailStore
import XCTest

/// File and folder names that are not UTF-8 (a Maildir copied from an old system in Latin-1): a message file is
/// imported, opened by the bytes of its name; a folder, walked by its path, is named among the unreadable, not left
/// out without a word (both were silently skipped before).
extension ImportTests {
    func testNamesThatAreNotUTF8AreImportedOrSaid() throws {
        try write("md/cur/1700000000.1.host:2,S", message("plain"))
        try FileManager.default.createDirectory(atPath: dir.file("md/new"), withIntermediateDirectories: true)
        // `Importer` sets its size limit as the prefetch limit: the odd name is opened whatever it is.
        for (i, folder) in ["md/cur", "md/new"].enumerated() {
            var path = Array(dir.file(folder).utf8) + Array("/17000000\(i)1.2.caf".utf8) + [0xE9] + Array(":2,S".utf8)
            path.append(0)
            let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o600) } }
            XCTAssertGreaterThanOrEqual(fd, 0)
            let bytes = Array(message("latin1-\(i)").utf8)
            XCTAssertEqual(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, bytes.count)
            close(fd)
        }
        var folder = Array(dir.file("md/.Archiv").utf8) + [0xE9]
        folder.append(0)
        XCTAssertEqual(folder.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o700) } }, 0)
        let s = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 3, "\(s)")
        XCTAssertEqual(try received().compactMap(\.messageID).sorted(),
                       ["latin1-0@example.com", "latin1-1@example.com", "plain@example.com"])
        XCTAssertEqual(s.unreadable.count, 1, "\(s.unreadable)")
        XCTAssertTrue(s.unreadable.first?.contains("a folder whose name is not UTF-8 was not imported") == true, "\(s.unreadable)")
    }
}
