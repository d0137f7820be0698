import Foundation
import TestSupport
import XCTest

/// `mailstore import`'s options and summary (docs/cli.md, `mailstore import`).
final class ImportCommandTests: CLITestCase {
    private func writeMbox(_ name: String) throws -> String {
        let path = dir.file(name)
        try Data("From a@example.com Mon Jan  1 10:00:00 2024\nFrom: a@example.com\nMessage-ID: <a@x>\nSubject: a\n\nbody\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `--folder ""` is refused as `--account ""` is (exit 64); `--folder inbox` is the Inbox, `INBOX`, not a second
    /// folder with its role.
    func testAnEmptyFolderIsRefusedAndInboxInAnyCaseIsTheInbox() throws {
        try mailstore("init")
        let mbox = try writeMbox("a.mbox")
        let refused = try mailstore("import", "--mbox", mbox, "--folder", "", expect: 64)
        XCTAssertTrue(refused.stderr.contains("--folder must not be empty"), refused.stderr)
        try mailstore("import", "--mbox", mbox, "--folder", "INBOX", "--quiet")
        try mailstore("import", "--mbox", mbox, "--folder", "inbox", "--quiet")
        let folders = try mailstore("project", "--view", "folders").stdout
        XCTAssertEqual(folders.split(separator: "\n").filter { $0.contains("Inbox") }.count, 1, folders)
        let discovered = try mailstore("log", "--type", "FolderDiscovered").stdout.split(separator: "\n")
        XCTAssertEqual(discovered.count, 1, "\(discovered)")
        XCTAssertTrue(discovered.first?.hasSuffix("INBOX role=inbox") == true, "\(discovered)")
    }

    /// What is not mail is said: counted in the JSON summary (`skippedCount`, `skipped`; `vanishedCount`, `vanished`
    /// beside the fields there were) and warned about on stderr; a FIFO does not hang the import.
    func testEntriesThatAreNotMailAreCountedInTheJSONAndWarnedAbout() throws {
        try mailstore("init")
        let cur = dir.file("md/cur")
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        try Data("From: a@example.com\nMessage-ID: <m@x>\n\nbody\n".utf8).write(to: URL(fileURLWithPath: cur + "/1.1.host:2,S"))
        XCTAssertEqual(mkfifo(cur + "/2.2.host:2,S", 0o600), 0)
        let r = try mailstore("import", "--maildir", dir.file("md"), "--json")
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["imported"] as? Int, 1)
        XCTAssertEqual(summary["skippedCount"] as? Int, 1)
        XCTAssertEqual(summary["vanishedCount"] as? Int, 0)
        XCTAssertEqual(summary["vanished"] as? [String], [])
        XCTAssertNotNil(summary["unreadable"], "the fields there were stay")
        XCTAssertTrue(r.stderr.contains("skipped: \(cur)/2.2.host:2,S: a FIFO (named pipe), not a message file"), r.stderr)
        let text = try mailstore("import", "--maildir", dir.file("md"))
        XCTAssertTrue(text.stdout.contains("Skipped (not mail, or a folder too deep or unreadable; warned about above): 1 entry"), text.stdout)
    }

    /// A folder nested too deep to walk is said on stderr, in the text summary and in the JSON (`skipped`).
    func testAFolderTooDeepIsReportedAsSkipped() throws {
        try mailstore("init")
        var path = dir.file("md")
        for level in 0...65 {
            if level > 0 { path += "/d\(level)" }
            try FileManager.default.createDirectory(atPath: path + "/cur", withIntermediateDirectories: true)
            try Data("From: a@example.com\nMessage-ID: <m\(level)@x>\n\nbody\n".utf8).write(to: URL(fileURLWithPath: path + "/cur/\(level).1.host:2,S"))
        }
        let cut = dir.file("md") + (1...64).map { "/d\($0)" }.joined()
        let r = try mailstore("import", "--maildir", dir.file("md"), "--json")
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["imported"] as? Int, 64)
        XCTAssertEqual(summary["skippedCount"] as? Int, 1)
        let line = try XCTUnwrap((summary["skipped"] as? [String])?.first)
        XCTAssertTrue(line.hasPrefix("\(cut): a folder nested more than 64 levels below the Maildir root; not imported"), line)
        XCTAssertTrue(r.stderr.contains("skipped: \(cut): a folder nested more than 64 levels"), r.stderr)
        let text = try mailstore("import", "--maildir", dir.file("md"))
        XCTAssertTrue(text.stdout.contains("Skipped (not mail, or a folder too deep or unreadable; warned about above): 1 entry"), text.stdout)
    }

    /// A compressed file or a lone message given to `--mbox` is refused (exit 3, a file error) before anything is
    /// stored, saying what it is and what to do; it was imported as one junk message without a word.
    func testAFileThatIsNotAnMboxIsRefusedWithExit3AndNothingStored() throws {
        try mailstore("init")
        let gz = dir.file("old.mbox.gz")
        try Data([0x1F, 0x8B, 0x08, 0x00] + Array(repeating: 0x41, count: 64)).write(to: URL(fileURLWithPath: gz))
        let compressed = try mailstore("import", "--mbox", gz, expect: 3)
        XCTAssertTrue(compressed.stderr.contains("it is gzip-compressed, not an mbox; decompress it first (`gzip -dc '\(gz)' > '\(dir.file("old.mbox"))'`)"),
                      compressed.stderr)
        let eml = dir.file("one.eml")
        try Data("From: a@example.com\nMessage-ID: <a@x>\nSubject: a\n\nbody\n".utf8).write(to: URL(fileURLWithPath: eml))
        let lone = try mailstore("import", "--mbox", eml, expect: 3)
        XCTAssertTrue(lone.stderr.contains("not an mbox: it begins with a header line (`From:`), as a single message does, not a From_ line; "
                                           + "a lone message needs a From_ line before it"), lone.stderr)
        XCTAssertEqual(try mailstore("log", "--type", "FolderDiscovered").stdout, "", "nothing stored")
        XCTAssertEqual(try mailstore("log", "--type", "EmailReceived").stdout, "", "nothing stored")
    }
}
