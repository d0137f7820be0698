import Foundation
import XCTest

/// Replies and forwards from the command line: a reply to all goes to the original's Reply-To, To and Cc without
/// the account's own address; a forward carries the original's attachments up to a draft's bounds, naming those
/// left out; `--account` may be left out with one account.
final class DraftReplyCommandTests: CLITestCase {
    /// Imports one message to `me@example.com` with a Reply-To, a Cc, `inline` long-named inline images and then
    /// `files` small attachments; returns its email id.
    private func importOriginal(files: Int, inline: Int = 0) throws -> String {
        var mbox = "From bob@example.com Mon Mar  2 10:00:00 2026\n"
            + "From: Bob <bob@example.com>\nReply-To: The List <list@lists.example.org>\n"
            + "To: The List <list@lists.example.org>, Me <ME@example.com>\nCc: carol@example.com, me@example.com\n"
            + "Subject: Agenda\nDate: 02 Mar 2026 10:00:00 +0000\nMessage-ID: <agenda@example.com>\n"
            + "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain\n\nSee the files.\n"
        for i in 0..<inline {
            mbox += "--b1\nContent-Type: image/png\nContent-Disposition: inline; filename=\"\(String(repeating: "i", count: 300))\(i).png\"\n"
                + "Content-ID: <img\(i)@example.com>\n\nx\n"
        }
        for i in 0..<files {
            mbox += "--b1\nContent-Type: text/csv\nContent-Disposition: attachment; filename=\"f\(i).csv\"\n\nrow,\(i)\n"
        }
        mbox += "--b1--\n"
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("in.mbox")))
        try fileAsSynced(mbox: dir.file("in.mbox"), folder: "in", account: "work")
        let line = try mailstore("log", "--type", "EmailReceived", "--json").stdout.split(separator: "\n").first ?? ""
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try XCTUnwrap((event["payload"] as? [String: Any])?["emailID"] as? String)
    }

    private func draft(_ id: Substring?) throws -> [String: Any] {
        let out = try mailstore("draft", "show", String(try XCTUnwrap(id)), "--json").stdout
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    }

    private func emails(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { $0["email"] as? String }
    }

    func testAReplyToAllAndAForwardWithTheOriginalsAttachments() throws {
        try mailstore("init")
        try addAccount("work")
        let original = try importOriginal(files: 101)
        let one = try draft(try mailstore("draft", "new", "--reply-to", original).stdout.split(separator: "\n").last)
        XCTAssertEqual(emails(one["to"]), ["list@lists.example.org"], "the Reply-To, not the From")
        let all = try draft(try mailstore("draft", "new", "--account", "work", "--reply-all", original).stdout.split(separator: "\n").last)
        XCTAssertEqual(emails(all["to"]), ["list@lists.example.org"], "me left out, the list once")
        XCTAssertEqual(emails(all["cc"]), ["carol@example.com"])
        XCTAssertEqual(all["subject"] as? String, "Re: Agenda")
        let forward = try mailstore("draft", "new", "--forward", original, "--to", "erin@example.com")
        XCTAssertTrue(forward.stderr.contains("the original's attachment f100.csv was left out: a draft has at most 100"), forward.stderr)
        let f = try draft(forward.stdout.split(separator: "\n").last)
        let names = (f["attachments"] as? [[String: Any]] ?? []).compactMap { $0["filename"] as? String }
        XCTAssertEqual(names, (0..<100).map { "f\($0).csv" })
        let both = try mailstore("draft", "new", "--reply-all", original, "--forward", original, expect: 64)
        XCTAssertTrue(both.stderr.contains("give one of --reply-to, --reply-all and --forward"), both.stderr)
        XCTAssertEqual(try mailstore("draft", "list").stdout.split(separator: "\n").count, 3)
        // With a second account, no default.
        try addAccount("home", email: "home@example.com")
        let which = try mailstore("draft", "list", expect: 64)
        XCTAssertTrue(which.stderr.contains("several accounts"), which.stderr)
    }

    /// The original's attachment list (1,000 entries, 64 KiB of names and types) keeps real attachments before inline
    /// parts: a message whose first parts are hundreds of long-named inline images lost its real attachments from the
    /// event, and a forward of it carried none without a word.
    func testAForwardCarriesTheAttachmentsAfterHundredsOfInlineImages() throws {
        try mailstore("init")
        try addAccount("work")
        let original = try importOriginal(files: 2, inline: 300)
        let forward = try mailstore("draft", "new", "--forward", original, "--to", "erin@example.com")
        let f = try draft(forward.stdout.split(separator: "\n").last)
        let names = (f["attachments"] as? [[String: Any]] ?? []).compactMap { $0["filename"] as? String }
        XCTAssertEqual(names, ["f0.csv", "f1.csv"], forward.stderr)
        XCTAssertFalse(forward.stderr.contains("left out"), forward.stderr)
    }

    /// Attachments past the original's list are not carried, and the forward says how many.
    func testAForwardSaysHowManyAttachmentsPastTheListItCannotCarry() throws {
        try mailstore("init")
        try addAccount("work")
        let original = try importOriginal(files: 1_000 + 3)
        let forward = try mailstore("draft", "new", "--forward", original, "--to", "erin@example.com")
        XCTAssertTrue(forward.stderr.contains("the original's attachment f999.csv was left out: a draft has at most 100"), forward.stderr)
        XCTAssertTrue(forward.stderr.contains("3 more of the original's attachments were left out: a message's attachment list holds "
                                              + "at most 1000 entries and 64 KiB of names and types"), forward.stderr)
    }
}
