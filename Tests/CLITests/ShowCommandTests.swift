import Foundation
import TestSupport
import XCTest

/// `mailstore show`: the headers, then the message's readable text.
final class ShowCommandTests: CLITestCase {
    /// Imports `messages` (subject, the rest of the header, body) as one mbox; the email ids by subject.
    private func importMessages(_ messages: [(subject: String, headers: String, body: String)]) throws -> [String: String] {
        try mailstore("init")
        var mbox = ""
        for (i, m) in messages.enumerated() {
            mbox += "From sender@example.com Mon Nov 16 10:00:00 2026\n"
            mbox += "From: Sender <sender@example.com>\nTo: you@example.com\nSubject: \(m.subject)\n"
            mbox += "Message-ID: <show\(i)@example.com>\nDate: Mon, 16 Nov 2026 10:00:0\(i) +0000\n\(m.headers)\n\(m.body)\n\n"
        }
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("show.mbox")))
        try mailstore("import", "--mbox", dir.file("show.mbox"), "--account", "demo", "--quiet")
        var ids: [String: String] = [:]
        for line in try mailstore("log", "--type", "EmailReceived", "--json").stdout.split(separator: "\n") {
            let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let payload = try XCTUnwrap(obj["payload"] as? [String: Any])
            ids[try XCTUnwrap(payload["subject"] as? String)] = try XCTUnwrap(payload["emailID"] as? String)
        }
        return ids
    }

    func testTheTextFollowsTheHeadersPlainHTMLOrNone() throws {
        let multipart = """
        MIME-Version: 1.0
        Content-Type: multipart/alternative; boundary="b1"

        --b1
        Content-Type: text/plain; charset=iso-8859-1
        Content-Transfer-Encoding: quoted-printable

        Gr=FC=DFe aus M=FCnchen\r
        second line\r
        --b1
        Content-Type: text/html

        <p>not this one</p>
        --b1--
        """
        let (headers, body) = { (s: String) -> (String, String) in
            let parts = s.components(separatedBy: "\n\n")
            return (parts[0] + "\n", parts.dropFirst().joined(separator: "\n\n"))
        }(multipart)
        let ids = try importMessages([
            ("plain", headers, body),
            ("html", "MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n", "<html><body><h1>Hello</h1><p>from <b>HTML</b></p></body></html>"),
            ("attachment only", "MIME-Version: 1.0\nContent-Type: application/pdf; name=\"a.pdf\"\nContent-Transfer-Encoding: base64\n", "JVBERi0xLjQK"),
            ("hostile", "", "line one \u{1B}[2J\u{1B}]52;c;ZXZpbA==\u{07}still one\n\u{202E}reversed"),
            ("blank plain", "MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b2\"\n",
             "--b2\nContent-Type: text/plain\n\n \n\n--b2\nContent-Type: text/html\n\n<p>the real text</p>\n--b2--"),
        ])
        let plain = try mailstore("show", try XCTUnwrap(ids["plain"])).stdout
        XCTAssertTrue(plain.contains("Snippet:     Grüße aus München second line\n\nGrüße aus München\nsecond line\n"), plain)
        XCTAssertFalse(plain.contains("not this one") || plain.contains("\r"), plain)
        let html = try mailstore("show", try XCTUnwrap(ids["html"])).stdout
        XCTAssertTrue(html.contains("\n\n(the text of its HTML part)\n\n"), html)
        XCTAssertTrue(html.contains("Hello") && html.contains("from HTML") && !html.contains("<p>"), html)
        let blank = try mailstore("show", try XCTUnwrap(ids["blank plain"])).stdout
        XCTAssertTrue(blank.contains("(the text of its HTML part)\n\nthe real text"), blank)
        let none = try mailstore("show", try XCTUnwrap(ids["attachment only"])).stdout
        XCTAssertTrue(none.hasSuffix("\n\n(no text part; see the attachments above)\n"), none)
        let hostile = try mailstore("show", try XCTUnwrap(ids["hostile"])).stdout
        XCTAssertTrue(hostile.contains("line one still one\n"), hostile.debugDescription)
        XCTAssertFalse(hostile.unicodeScalars.contains { [0x1B, 0x07, 0x202E].contains($0.value) }, hostile.debugDescription)
        let headersOnly = try mailstore("show", try XCTUnwrap(ids["plain"]), "--headers-only").stdout
        XCTAssertTrue(headersOnly.hasPrefix("Email:       ") && headersOnly.hasSuffix("second line\n") && !headersOnly.contains("\n\n"), headersOnly)
    }

    /// A text over 1 MiB is cut there, at a character's end, with a notice naming `--raw`.
    /// The folder and flags are the copy's now (after actions), with how it came beside them.
    func testTheFolderAndFlagsAreAsTheyAreNow() throws {
        let ids = try importMessages([("Plans", "", "Text")])
        let id = try XCTUnwrap(ids["Plans"])
        // A folder to move it to (a folder comes with the mail filed in it).
        let other = "From a@example.com Mon Nov 16 10:00:00 2026\nFrom: a@example.com\nSubject: Old\nMessage-ID: <old@example.com>\n\nold\n"
        try Data(other.utf8).write(to: URL(fileURLWithPath: dir.file("archive.mbox")))
        try mailstore("import", "--mbox", dir.file("archive.mbox"), "--account", "demo", "--folder", "Archive", "--quiet")
        let before = try mailstore("show", id, "--headers-only").stdout
        XCTAssertTrue(before.contains("Folder:      show\n"), before)
        XCTAssertTrue(before.contains("Flags:       (none)\n"), before)
        let page = try mailstore("project", "--view", "threads", "--account", "demo", "--folder", "show", "--json").stdout
        let threads = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])?["threads"] as? [[String: Any]])
        let thread = try XCTUnwrap(threads.first?["id"] as? String)
        try mailstore("star", thread)
        try mailstore("move", thread, "--to", "Archive")
        let after = try mailstore("show", id, "--headers-only").stdout
        XCTAssertTrue(after.contains("Folder:      Archive  (received in show)\n"), after)
        XCTAssertTrue(after.contains("Flags:       \\Flagged  (received with (none))\n"), after)
    }

    func testAHugeTextIsCutWithANotice() throws {
        let line = String(repeating: "é", count: 99) + "\n"  // 199 bytes
        let ids = try importMessages([("huge", "Content-Type: text/plain; charset=utf-8\n", String(repeating: line, count: 8_000))])
        let id = try XCTUnwrap(ids["huge"])
        let out = try mailstore("show", id).stdout
        XCTAssertLessThan(out.utf8.count, (1 << 20) + 2_000)
        XCTAssertGreaterThan(out.utf8.count, (1 << 20) - 1_000)
        XCTAssertTrue(out.hasSuffix("\n[the text goes on past 1 MiB: `mailstore show --raw \(id)` prints the whole message]\n"), String(out.suffix(300)))
        XCTAssertFalse(out.contains("\u{FFFD}"), "cut at a character's end")
    }

    /// An internationalised domain shows as people read it (`bücher`), in `show` and in `contacts complete`, which `bü`
    /// finds; a label the display rules keep (Latin mixed with Cyrillic) shows as mail wrote it; JSON keeps the address
    /// exact. A search finds the address by either form.
    func testAnInternationalisedDomainShowsAsPeopleReadIt() throws {
        let ids = try importMessages([("books", "Cc: Bob <bob@xn--bcher-kva.example>, Eve <eve@xn--pypal-4ve.example>\n", "the order")])
        let id = try XCTUnwrap(ids["books"])
        let shown = try mailstore("show", id).stdout
        XCTAssertTrue(shown.contains("Bob <bob@bücher.example>, Eve <eve@xn--pypal-4ve.example>"), shown)
        let json = try mailstore("show", id, "--json").stdout
        XCTAssertTrue(json.contains("bob@xn--bcher-kva.example") && !json.contains("bücher"), json)
        let completed = try mailstore("contacts", "complete", "bü").stdout
        XCTAssertTrue(completed.hasPrefix("Bob <bob@bücher.example>  ("), completed)
        let completedJSON = try mailstore("contacts", "complete", "bü", "--json").stdout
        XCTAssertTrue(completedJSON.contains("bob@xn--bcher-kva.example"), completedJSON)
        for query in ["cc:bücher", "cc:xn--bcher-kva"] {
            XCTAssertTrue(try mailstore("search", query).stdout.contains("books"), query)
        }
        XCTAssertFalse(try mailstore("search", "cc:pаypal").stdout.contains("books"))
    }
}
