import Foundation
import TestSupport
import XCTest

/// Text from mail never reaches the terminal with escape sequences or bidi controls; JSON keeps it, escaped.
final class TerminalOutputTests: CLITestCase {
    /// An mbox with one message whose Subject clears the screen and writes the clipboard (OSC 52), whose
    /// display name carries a right-to-left override, and whose body holds a raw escape.
    private func importHostileMessage() throws {
        try mailstore("init")
        let message = """
        From hostile@example.com Mon Nov 16 10:00:00 2026
        From: =?utf-8?q?Mallory=E2=80=AEgpj.exe?= <mallory@example.com>
        To: you@example.com
        Subject: =?utf-8?q?hi=1B[2J=1B]52;c;aGVsbG8=3D=07?=
        Message-ID: <hostile@example.com>
        Date: Mon, 16 Nov 2026 10:00:00 +0000

        body \u{1B}]52;c;ZXZpbA==\u{07}text


        """
        try Data(message.utf8).write(to: URL(fileURLWithPath: dir.file("hostile.mbox")))
        let imported = try mailstore("import", "--mbox", dir.file("hostile.mbox"), "--account", "demo")
        XCTAssertTrue(imported.stdout.hasPrefix("Imported 1 of 1 message in 1 folder (0 already present)"), imported.stdout)
        // A quick import's time in hundredths ("in 0.0s" said nothing).
        XCTAssertNotNil(imported.stdout.range(of: #"present\) in [0-9]+\.[0-9]{2}s, "#, options: .regularExpression), imported.stdout)
    }

    private func assertClean(_ output: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x9D },
                       "\(what) printed a control: \(output.debugDescription)", file: file, line: line)
        XCTAssertFalse(output.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) },
                       "\(what) printed a bidi control: \(output.debugDescription)", file: file, line: line)
    }

    func testShowLogAndTheThreadListPrintNoEscapes() throws {
        try importHostileMessage()
        let log = try mailstore("log", "--type", "EmailReceived")
        assertClean(log.stdout, "log")
        let id = try XCTUnwrap(log.stdout.components(separatedBy: "email/").dropFirst().first?.prefix { !$0.isWhitespace })
        let show = try mailstore("show", String(id))
        assertClean(show.stdout, "show")
        XCTAssertTrue(show.stdout.contains("Subject:     hi\n"), show.stdout)
        XCTAssertTrue(show.stdout.contains("Mallorygpj.exe"), show.stdout)
        let threads = try mailstore("project", "--view", "threads", "--account", "demo", "--folder", "hostile")
        assertClean(threads.stdout, "the thread list")
        XCTAssertTrue(threads.stdout.contains("hi"), threads.stdout)
        let history = try mailstore("history", "--email", String(id))
        assertClean(history.stdout, "history")
        let contacts = try mailstore("contacts", "complete", "mal", "--account", "demo")
        assertClean(contacts.stdout, "contacts")
        XCTAssertTrue(contacts.stdout.contains("1 message, 1 from them"), contacts.stdout)
    }

    /// A display name holding specials is shown quoted (as Python's email package writes it): `show` printed
    /// `From: Evil <ceo@bank.com> <evil@example.org>`, one address read as two.
    func testADisplayNameWithSpecialsIsShownQuoted() throws {
        try mailstore("init")
        let message = """
        From evil@example.org Mon Nov 16 10:00:00 2026
        From: =?utf-8?q?Evil_=3Cceo=40bank.com=3E?= <evil@example.org>
        To: "Doe, Jane" <jane@example.com>, Bob <bob@example.com>
        Subject: pay
        Message-ID: <evil@example.org>
        Date: Mon, 16 Nov 2026 10:00:00 +0000

        x


        """
        try Data(message.utf8).write(to: URL(fileURLWithPath: dir.file("evil.mbox")))
        _ = try mailstore("import", "--mbox", dir.file("evil.mbox"), "--account", "demo")
        let log = try mailstore("log", "--type", "EmailReceived")
        XCTAssertTrue(log.stdout.contains("from \"Evil <ceo@bank.com>\" <evil@example.org>"), log.stdout)
        let id = try XCTUnwrap(log.stdout.components(separatedBy: "email/").dropFirst().first?.prefix { !$0.isWhitespace })
        let show = try mailstore("show", String(id), "--headers-only")
        XCTAssertTrue(show.stdout.contains("From:        \"Evil <ceo@bank.com>\" <evil@example.org>\n"), show.stdout)
        XCTAssertTrue(show.stdout.contains("To:          \"Doe, Jane\" <jane@example.com>, Bob <bob@example.com>\n"), show.stdout)
        let contacts = try mailstore("contacts", "complete", "evil", "--account", "demo")
        XCTAssertTrue(contacts.stdout.contains("\"Evil <ceo@bank.com>\" <evil@example.org>"), contacts.stdout)
    }

    /// A display name that is only an escape sequence (`ESC ] FOO BEL`, encoded) showed as a blank sender in the thread
    /// list and in `search`: sanitised to nothing, it hid who wrote. The address is shown instead.
    func testASenderNameOfOnlyAnEscapeSequenceShowsTheAddress() throws {
        try mailstore("init")
        let message = """
        From enc@example.com Mon Nov 16 10:00:00 2026
        From: =?UTF-8?B?G11GT08HIA==?= <hidden@example.com>
        To: you@example.com
        Subject: evilthree
        Message-ID: <evilthree@example.com>
        Date: Mon, 16 Nov 2026 10:00:00 +0000

        body


        """
        try Data(message.utf8).write(to: URL(fileURLWithPath: dir.file("name.mbox")))
        try mailstore("import", "--mbox", dir.file("name.mbox"), "--account", "demo")
        let threads = try mailstore("project", "--view", "threads", "--account", "demo", "--folder", "name")
        assertClean(threads.stdout, "the thread list")
        XCTAssertTrue(threads.stdout.contains("hidden  "), threads.stdout)
        let search = try mailstore("search", "evilthree")
        assertClean(search.stdout, "search")
        XCTAssertTrue(search.stdout.contains("hidden@example.com"), search.stdout)
    }

    /// An error quoting a huge argument prints its beginning and its end (the hint), not the whole argument.
    /// Output that cannot be written (a full disk: `/dev/full`) fails the command with a message and the data error code,
    /// whether it went through stdio or straight to the file (a Foundation write had trapped, exit 132; stdio's lost
    /// output had exited 0).
    func testOutputToAFullDiskFailsTheCommandSayingSo() throws {
        try importHostileMessage()
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        for args in [["log"], ["project", "--view", "threads", "--account", "demo", "--folder", "hostile", "--all", "--json"], ["verify", "--json"],
                     ["stats", "--json"]] {
            let r = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" >/dev/full", BuiltProducts.executable("mailstore")] + args,
                                         environment: env)
            XCTAssertEqual(r.status, 3, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("cannot write the output: "), "\(args): \(r.stderr)")
        }
    }

    func testAnErrorQuotingAHugeArgumentIsCutKeepingItsHint() throws {
        try mailstore("init")
        let r = try mailstore("show", String(repeating: "a", count: 100_000), expect: 4)
        XCTAssertLessThan(r.stderr.count, 2_100, r.stderr.prefix(300).description)
        XCTAssertTrue(r.stderr.hasPrefix("mailstore: error: no email with id 'aaa"), r.stderr.prefix(300).description)
        XCTAssertTrue(r.stderr.contains("characters cut"), r.stderr.prefix(300).description)
        XCTAssertTrue(r.stderr.hasSuffix("': `mailstore log --type EmailReceived` lists them\n"), r.stderr.suffix(300).description)
    }

    /// Usage errors quote their arguments, which may come from mail through a script: the parser's own and the
    /// commands' are printed without escapes, with their exit status kept. An import's account name is bounded.
    func testUsageErrorsQuoteArgumentsWithoutEscapes() throws {
        try mailstore("init")
        let escape = "x\u{1B}[2J\u{1B}]52;c;aGVsbG8=\u{07}y"
        for args in [["project", "--view", "threads", "--cursor", escape], ["no-such-command-" + escape],
                     ["import", "--mbox", "/nonexistent", "--account", escape], ["project", "--view", escape]] {
            let r = try mailstore(args, expect: 64)
            XCTAssertFalse(r.stderr.contains("\u{1B}") || r.stderr.contains("\u{07}"), "\(args): \(r.stderr.debugDescription)")
            XCTAssertTrue(r.stderr.contains("Usage:") || r.stderr.contains("Error:") || r.stderr.hasPrefix("mailstore: error:"), r.stderr)
        }
        let long = try mailstore("import", "--mbox", "/nonexistent", "--account", String(repeating: "a", count: 1_025), expect: 64)
        XCTAssertTrue(long.stderr.contains("cannot name an account: give 1 to 1,024 bytes"), long.stderr)
        XCTAssertLessThan(long.stderr.count, 600, "the name is quoted cut short")
        let star = try mailstore("import", "--mbox", "/nonexistent", "--account", "*", expect: 64)
        XCTAssertTrue(star.stderr.contains("not `*` (every account together)"), star.stderr)
        try mailstore("import", "--mbox", dir.file("none.mbox"), "--account", "my mail é", expect: 3)
        XCTAssertEqual(try mailstore("--help").status, 0)
    }

    func testJSONKeepsTheTextEscaped() throws {
        try importHostileMessage()
        let log = try mailstore("log", "--type", "EmailReceived")
        let id = try XCTUnwrap(log.stdout.components(separatedBy: "email/").dropFirst().first?.prefix { !$0.isWhitespace })
        let json = try mailstore("show", String(id), "--json")
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value == 0x1B }, "JSON escapes controls")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let payload = object?["payload"] as? [String: Any] ?? object ?? [:]
        let subject = try XCTUnwrap(payload["subject"] as? String ?? (object?["event"] as? [String: Any])?["subject"] as? String,
                                    json.stdout)
        XCTAssertEqual(subject, "hi\u{1B}[2J\u{1B}]52;c;aGVsbG8=\u{07}", "JSON keeps the text exactly")
        // The display name's right-to-left override is written as an escape too (the encoder leaves it raw), and reads
        // back as itself.
        assertClean(json.stdout, "show --json")
        XCTAssertTrue(json.stdout.contains(#"Mallory\u202Egpj.exe"#), json.stdout)
        let from = (payload["from"] as? [[String: Any]])?.first?["name"] as? String
        XCTAssertEqual(from, "Mallory\u{202E}gpj.exe")
        for args in [["log", "--json"], ["project", "--view", "threads", "--account", "demo", "--folder", "hostile", "--json"],
                     ["search", "hi", "--json"], ["contacts", "complete", "mal", "--account", "demo", "--json"]] {
            assertClean(try mailstore(args).stdout, args.joined(separator: " "))
        }
    }

    /// `show --raw` prints a stranger's bytes exactly: to a pipe, never to a terminal unless asked (`--force`).
    func testRawBytesGoToAPipeNotATerminal() throws {
        try importHostileMessage()
        let log = try mailstore("log", "--type", "EmailReceived")
        let id = String(try XCTUnwrap(log.stdout.components(separatedBy: "email/").dropFirst().first?.prefix { !$0.isWhitespace }))
        XCTAssertTrue(try mailstore("show", id, "--raw").stdout.contains("\u{1B}]52;c;ZXZpbA=="), "a pipe gets the bytes as they are")
        // `script` runs the command with a terminal as its standard output.
        let exe = BuiltProducts.executable("mailstore")
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let onTerminal = try ChildProcess.run("/usr/bin/script", ["-qec", "\(exe) show \(id) --raw", "/dev/null"], environment: env)
        XCTAssertEqual(onTerminal.status, 64, onTerminal.stdout)
        XCTAssertTrue(onTerminal.stdout.contains("standard output is a terminal"), onTerminal.stdout)
        XCTAssertFalse(onTerminal.stdout.contains("ZXZpbA=="), "nothing of the message was printed")
        let forced = try ChildProcess.run("/usr/bin/script", ["-qec", "\(exe) show \(id) --raw --force", "/dev/null"], environment: env)
        XCTAssertEqual(forced.status, 0, forced.stdout)
        XCTAssertTrue(forced.stdout.contains("ZXZpbA=="), forced.stdout)
    }

    /// An argument that is not UTF-8 is refused: Swift would read it with U+FFFD in place of its bytes, naming another
    /// path (`init --store $'s\xff'` made a folder `s\u{FFFD}`).
    func testAnArgumentThatIsNotUTF8IsRefused() throws {
        let exe = BuiltProducts.executable("mailstore")
        let r = try ChildProcess.run("/bin/sh", ["-c", #"exec "$0" init --store "$1/s$(printf '\377')""#, exe, dir.path])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("argument 3 is not UTF-8 text"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("s") }, [], "nothing made")
    }

    /// An argument holding a letter with thousands of combining marks is refused before the command line is parsed:
    /// swift-argument-parser compares arguments as Unicode text, quadratic in a character's marks (16,000: 4 s before
    /// any command began). A letter with 255 marks (far past any script) is still an argument.
    func testAnArgumentWithACharacterOfThousandsOfMarksIsRefusedBeforeParsing() throws {
        try mailstore("init")
        let heavy = "e" + String(repeating: "\u{301}\u{316}", count: 2000)
        let r = try mailstore(["project", "--view", "threads", "--folder", heavy], expect: 64)
        XCTAssertTrue(r.stderr.contains("argument 5 has a character with 4000 combining marks or joined parts (at most 255)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Usage"), r.stderr)
        let fine = try mailstore(["project", "--view", "threads", "--folder", "e" + String(repeating: "\u{301}", count: 255)])
        XCTAssertFalse(fine.stderr.contains("combining marks"), fine.stderr)
    }
}
