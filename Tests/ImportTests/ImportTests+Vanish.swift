import Foundation
@testable import MailStore
import XCTest

/// Maildir files renamed (a flag changed, `new/` to `cur/`) or deleted while an import runs, and entries of `cur/` and
/// `new/` that are not message files: the renamed file is found again by its unique name and imported with its flags of
/// now, as Dovecot does; a deleted one is said to have vanished; a FIFO, a socket, a folder or a dangling link is said
/// to be skipped, never waited on. Before, all of them were dropped without a word.
extension ImportTests {
    func testFilesRenamedOrDeletedWhileListedAreFoundAgainOrSaidToHaveVanished() throws {
        for i in 0..<6 { try write("md/cur/17000000\(i)0.\(i).host:2,S", message("m\(i)")) }
        try write("md/new/1700000098.8.host", message("fresh"))
        try write("md/new/1700000099.9.host", message("read-meanwhile"))
        var source = MaildirSource(root: dir.file("md"))
        source.prefetchLimit = 1 << 20
        let listing = try XCTUnwrap(try source.scan().first)
        var listed: [SourceMessage] = []
        var notes: [MaildirSource.Note] = []
        var moved = false, changed = false
        // After the first message of `new/` (listed first): a client reads the next one (`new/` to `cur/`); after the
        // first of `cur/`, while the rest are listed and not yet looked at, it flags one and deletes another.
        try source.messages(of: listing, chunk: 1) { m, n in
            listed += m
            notes += n
            let md = dir.file("md")
            if !moved {
                moved = true
                XCTAssertEqual(rename(md + "/new/1700000099.9.host", md + "/cur/1700000099.9.host:2,S"), 0)
            } else if !changed && m.contains(where: { $0.location == "1700000000.0.host" }) {
                changed = true
                XCTAssertEqual(rename(md + "/cur/1700000030.3.host:2,S", md + "/cur/1700000030.3.host:2,RS"), 0)
                XCTAssertEqual(unlink(md + "/cur/1700000040.4.host:2,S"), 0)
            }
        }
        XCTAssertEqual(listed.count, 7, "each once")
        let byLocation = Dictionary(uniqueKeysWithValues: listed.map { ($0.location, $0) })
        XCTAssertEqual(Set(byLocation.keys), ["1700000098.8.host", "1700000000.0.host", "1700000010.1.host", "1700000020.2.host", "1700000030.3.host",
                                              "1700000050.5.host", "1700000099.9.host"])
        XCTAssertEqual(byLocation["1700000030.3.host"]?.flags, ["\\Answered", "\\Seen"], "its flags of now")
        XCTAssertEqual(byLocation["1700000099.9.host"]?.flags, ["\\Seen"], "moved from new/ to cur/ and read")
        XCTAssertEqual(notes, [.vanished("INBOX/1700000040.4.host")])
    }

    func testEntriesOfCurThatAreNotMessageFilesAreSaidToBeSkippedAndNeverWaitedOn() throws {
        try write("md/cur/1700000000.1.host:2,S", message("plain"))
        XCTAssertEqual(mkfifo(dir.file("md/cur/1700000001.2.host:2,S"), 0o600), 0)
        XCTAssertEqual(symlink(dir.file("nowhere"), dir.file("md/cur/1700000002.3.host:2,S")), 0)
        try FileManager.default.createDirectory(atPath: dir.file("md/new/1700000003.4.host"), withIntermediateDirectories: true)
        let s = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 1)
        XCTAssertEqual(s.found, 4)
        XCTAssertEqual(s.skippedCount, 3, "\(s.skipped)")
        XCTAssertEqual(s.skipped.sorted(), [
            dir.file("md/cur/1700000001.2.host:2,S") + ": a FIFO (named pipe), not a message file",
            dir.file("md/cur/1700000002.3.host:2,S") + ": a symbolic link to nothing, not a message file",
            dir.file("md/new/1700000003.4.host") + ": a folder, not a message file",
        ])
        XCTAssertEqual(s.vanishedCount, 0)
        XCTAssertEqual(s.unreadable, [])
    }
}
