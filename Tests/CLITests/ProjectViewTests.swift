import CorpusGenerator
import Foundation
import MailStore
import TestSupport
@testable import MailStoreCLI
import XCTest

/// `mailstore project --view X` prints view X (text and JSON) for every view, never another view.
final class ProjectViewTests: CLITestCase {
    /// A store with imported mail (account demo) and a configured account (work) with a draft.
    private func prepare() throws -> String {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 60, outputDirectory: dir.file("md"), seed: 7))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        try addAccount("work")
        let draft = try mailstore("draft", "new", "--account", "work", "--to", "bob@example.com", "--subject", "Quarterly plan",
                                  "--body", "Hello")
        return String(draft.stdout.split(separator: "\n").last ?? "")
    }

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    func testEveryViewPrintsItself() throws {
        let draftID = try prepare()
        XCTAssertEqual(draftID.count, 16)
        let threads = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "3").stdout
        XCTAssertEqual(threads.split(separator: "\n").count, 3)
        // The search view is read with `mailstore search`; `project --view search` says so.
        let search = try mailstore("project", "--view", "search", expect: 64)
        XCTAssertTrue(search.stderr.contains("mailstore search"), search.stderr)
        for view in ViewName.projected {
            let account = [.drafts, .accounts].contains(view) ? "work" : "demo"
            let text = try mailstore("project", "--view", view.rawValue, "--account", account, "--limit", "3")
            let out = try mailstore("project", "--view", view.rawValue, "--account", account, "--limit", "3", "--json").stdout
            if view != .threads { XCTAssertNotEqual(text.stdout, threads, "\(view) prints the thread list") }
            let obj = try json(out)
            switch view {
            case .threads:
                XCTAssertEqual(((obj as? [String: Any])?["threads"] as? [Any])?.count, 3, out)
            case .unread:
                XCTAssertNotNil((obj as? [String: Any])?["badge"] as? Int, out)
                XCTAssertTrue(text.stdout.hasPrefix("Account demo: badge"), text.stdout)
            case .folders:
                XCTAssertEqual((obj as? [[String: Any]])?.first?["accountId"] as? String, "demo", out)
            case .outbox:
                XCTAssertEqual((obj as? [[String: Any]])?.first?["account"] as? String, "demo", out)
                XCTAssertTrue(text.stdout.hasPrefix("Outbox of demo:"), text.stdout)
            case .dedup:
                XCTAssertNotNil(obj as? [Any], out)
            case .accounts:
                XCTAssertEqual((obj as? [[String: Any]])?.first?["name"] as? String, "work", out)
                XCTAssertTrue(text.stdout.hasPrefix("account"), text.stdout)
            case .sync:
                XCTAssertEqual((obj as? [[String: Any]])?.first?["account"] as? String, "demo", out)
                XCTAssertTrue(text.stdout.hasPrefix("folder"), text.stdout)
            case .actions:
                XCTAssertEqual((obj as? [Any])?.count, 0, out)
                XCTAssertTrue(text.stderr.contains("(no pending or failed actions)"), text.stderr)
            case .drafts:
                let rows = try XCTUnwrap(obj as? [[String: Any]], out)
                XCTAssertEqual(rows.first?["draftId"] as? String, draftID)
                XCTAssertEqual(rows.first?["subject"] as? String, "Quarterly plan")
                XCTAssertEqual(rows.first?["state"] as? String, "draft")
                XCTAssertTrue(text.stdout.hasPrefix(draftID) && text.stdout.contains("Quarterly plan"), text.stdout)
            case .contacts:
                let rows = try XCTUnwrap(obj as? [[String: Any]], out)
                XCTAssertEqual(rows.first?["account"] as? String, "demo")
                XCTAssertGreaterThan((rows.first?["contacts"] as? [Any])?.count ?? 0, 0, out)
                XCTAssertTrue(text.stdout.hasPrefix("Contacts of demo:"), text.stdout)
            case .notifications:
                XCTAssertEqual((obj as? [Any])?.count, 0, out)
                XCTAssertTrue(text.stdout.contains("(no notification decided yet)"), text.stdout)
            case .search:
                XCTFail("search is not a projected view")
            }
        }
    }

    /// `project --as-of` folds only the view shown and what showing it reads (`ProjectCommand.viewsRead`): every
    /// view, in every form, shows at a past point exactly what the live views showed when the log stood there.
    func testAsOfShowsEveryViewAndSearchInEveryFormAsTheLiveViewsDidThen() throws {
        _ = try prepare()
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        // A history window every 50 events, so the past point is read from the history with a tail after it.
        env["MAILSTORE_HISTORY_WINDOW"] = "50"
        func run(_ args: [String]) throws -> (Int32, String) {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
            return (r.status, r.stdout)
        }
        func threadIDs(_ account: String) throws -> [String] {
            let out = try mailstore("project", "--view", "threads", "--account", account, "--all", "--json").stdout
            let obj = try XCTUnwrap(try json(out) as? [String: Any])
            return (obj["threads"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        // Before the point: actions (the draft stays a draft: a send waits out its delay in the foreground).
        let ids = try threadIDs("demo")
        XCTAssertGreaterThan(ids.count, 6)
        try mailstore("archive", ids[0])
        try mailstore("unread", ids[1])
        try mailstore("star", ids[2])
        _ = try run(["replay", "--quiet"])
        func head() throws -> Int {
            try XCTUnwrap((try json(try mailstore("stats", "--json").stdout) as? [String: Any])?["events"] as? Int)
        }
        let point = try head()
        var forms: [[String]] = []
        for view in ViewName.projected {
            let base = ["project", "--view", view.rawValue]
            for who in [["--account", "demo"], ["--account", "work"], ["--unified"], []] {
                forms.append(base + who)
                forms.append(base + who + ["--json"])
            }
            if view == .threads {
                for extra in [["--folder", "Archive"], ["--category", "primary"], ["--all", "--limit", "7"], ["--folder", "Nope"]] {
                    forms.append(base + ["--account", "demo"] + extra)
                    forms.append(base + ["--account", "demo", "--json"] + extra)
                }
            }
            if view == .unread || view == .folders { forms.append(base + ["--account", "demo", "--folder", "INBOX", "--json"]) }
        }
        // Search at a past point folds only the views it reads (`MailStore.viewsSearchReads`) beside its index.
        for query in [["*"], ["is:unread"], ["is:starred", "OR", "folder:Archive"]] {
            for extra in [[], ["--json"], ["--output", "messages", "--json"], ["--account", "demo", "--sort", "oldest", "--limit", "5"]] {
                forms.append(["search"] + query + extra)
            }
        }
        var then: [[String]: (Int32, String)] = [:]
        for f in forms { then[f] = try run(f) }
        // After the point: more mail for demo and another account, actions, another draft.
        _ = try generateCorpus(CorpusOptions(messages: 40, outputDirectory: dir.file("md2"), seed: 8))
        try mailstore("import", "--maildir", dir.file("md2"), "--account", "demo", "--quiet")
        try mailstore("import", "--maildir", dir.file("md2"), "--account", "other", "--quiet")
        let later = try threadIDs("demo")
        try mailstore("delete", later[3])
        try mailstore("read", ids[1])
        try mailstore("draft", "new", "--account", "work", "--to", "carol@example.com", "--subject", "Later", "--body", "x")
        XCTAssertGreaterThan(try head(), point + 50)
        for f in forms {
            let past = try run(f + ["--as-of", String(point)])
            let was = try XCTUnwrap(then[f])
            XCTAssertEqual(past.0, was.0, "\(f.joined(separator: " ")) --as-of \(point): exit status")
            XCTAssertEqual(past.1, was.1, "\(f.joined(separator: " ")) --as-of \(point)")
        }
    }

    /// A command whose fold makes the history's open window due leaves the window's close to a thread of its own
    /// (`ViewStore.closeWindowAfterFold`) and exits only once it is done: with windows of 2 events every action's
    /// process closes one at the event it appended, before the next command runs (`stats` folds nothing).
    func testACommandClosesTheHistoryWindowItMadeDueBeforeItExits() throws {
        _ = try prepare()
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["MAILSTORE_HISTORY_WINDOW"] = "2"
        func run(_ args: String...) throws -> String {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            return r.stdout
        }
        let threads = try XCTUnwrap(try json(try run("project", "--view", "threads", "--account", "demo", "--json")) as? [String: Any])
        let id = try XCTUnwrap((threads["threads"] as? [[String: Any]])?.first?["id"] as? String)
        var closed: [Int] = []
        for action in ["star", "unstar", "unread", "read"] {
            _ = try run(action, id)
            let stats = try XCTUnwrap(try json(try run("stats", "--json")) as? [String: Any])
            let views = try XCTUnwrap(stats["views"] as? [String: Any])
            XCTAssertEqual(views["historyWindowEvents"] as? Int, 2)
            XCTAssertEqual(views["historyThrough"] as? Int, stats["events"] as? Int, "\(action): the window closed at the last event")
            closed.append(try XCTUnwrap(views["historyWindows"] as? Int))
        }
        XCTAssertEqual(closed, closed.sorted())
        XCTAssertEqual(Set(closed).count, 4, "each action closed a window: \(closed)")
        try mailstore("verify", "--views")
    }

    /// `--unified --folder F` lists F of every account that has it, merged newest first (pages with cursors give the same
    /// rows), and is "no folder" only when none has it; the unread view leaves out the accounts without it; an account
    /// name past a view key's 96 bytes is listed by its name, not its key.
    func testUnifiedFolderListingsAndLongAccountNames() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 60, outputDirectory: dir.file("md"), seed: 7))
        let long = String(repeating: "n", count: 100)
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        try mailstore("import", "--maildir", dir.file("md"), "--account", long, "--quiet")
        try Data(DiskFullTests.mbox(count: 2).utf8).write(to: URL(fileURLWithPath: dir.file("only.mbox")))
        try mailstore("import", "--mbox", dir.file("only.mbox"), "--folder", "Only", "--account", "solo", "--quiet")
        func threads(_ args: [String]) throws -> [[String: Any]] {
            let page = try XCTUnwrap(try json(try mailstore(["project", "--view", "threads", "--json"] + args).stdout) as? [String: Any])
            return try XCTUnwrap(page["threads"] as? [[String: Any]])
        }
        let unified = try threads(["--unified", "--folder", "Archive", "--all"])
        let demo = try threads(["--account", "demo", "--folder", "Archive", "--all"])
        let other = try threads(["--account", long, "--folder", "Archive", "--all"])
        XCTAssertGreaterThan(demo.count, 1)
        XCTAssertEqual(Set(unified.compactMap { $0["id"] as? String }), Set((demo + other).compactMap { $0["id"] as? String }))
        XCTAssertEqual(unified.count, demo.count + other.count)
        XCTAssertEqual(Set(unified.compactMap { $0["accountId"] as? String }), ["demo", long])
        let dates = unified.compactMap { $0["latestDate"] as? String }
        XCTAssertEqual(dates, dates.sorted(by: >), "newest first")
        // Two rows a page, cursor after cursor: the same rows in the same order.
        var paged: [String] = []
        var cursor: String?
        repeat {
            let out = try mailstore(["project", "--view", "threads", "--json", "--unified", "--folder", "Archive", "--limit", "2"]
                                    + (cursor.map { ["--cursor", $0] } ?? [])).stdout
            let page = try XCTUnwrap(try json(out) as? [String: Any])
            paged += (page["threads"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            cursor = page["nextCursor"] as? String
        } while cursor != nil && paged.count <= unified.count
        XCTAssertEqual(paged, unified.compactMap { $0["id"] as? String })
        XCTAssertEqual(try threads(["--unified", "--folder", "Only"]).compactMap { $0["accountId"] as? String }, ["solo", "solo"])
        let none = try mailstore("project", "--view", "threads", "--unified", "--folder", "NoSuch", expect: 4)
        XCTAssertTrue(none.stderr.contains("no folder"), none.stderr)

        let unread = try XCTUnwrap(try json(try mailstore("project", "--view", "unread", "--unified", "--folder", "Only", "--json").stdout)
                                   as? [String: Any])
        XCTAssertEqual((unread["accounts"] as? [[String: Any]])?.compactMap { $0["account"] as? String }, ["solo"])
        let all = try XCTUnwrap(try json(try mailstore("project", "--view", "unread", "--unified", "--json").stdout) as? [String: Any])
        XCTAssertEqual(Set((all["accounts"] as? [[String: Any]])?.compactMap { $0["account"] as? String } ?? []), ["demo", long, "solo"])
        let sync = try mailstore("project", "--view", "sync", "--unified").stdout
        XCTAssertTrue(sync.hasPrefix("account"), sync)
    }

    /// A view that is not one is a usage error listing the views.
    func testUnknownViewIsAUsageError() throws {
        try mailstore("init")
        let r = try mailstore("project", "--view", "nope", expect: 64)
        XCTAssertTrue(r.stderr.contains("contacts"), r.stderr)
    }

    /// A mistyped `--account` is "no account" (exit 4) in every view, as a mistyped folder is, not an empty view.
    func testAnUnknownAccountIsNotFound() throws {
        _ = try prepare()
        for view in ViewName.projected where view != .accounts {
            let r = try mailstore("project", "--view", view.rawValue, "--account", "nosuch", expect: 4)
            XCTAssertTrue(r.stderr.contains("no account named \"nosuch\""), "\(view): \(r.stderr)")
            XCTAssertTrue(r.stdout.isEmpty, "\(view): \(r.stdout)")
        }
        let long = String(repeating: "x", count: 100_000)
        let r = try mailstore("project", "--view", "contacts", "--account", long, expect: 4)
        XCTAssertLessThan(r.stderr.utf8.count, 500, "the name is quoted cut")
        try mailstore("project", "--view", "drafts", "--account", "work")
    }

    /// Reading the drafts or the outbox appends nothing to the log.
    func testReadCommandsAppendNothing() throws {
        _ = try prepare()
        let before = try mailstore("stats", "--json").stdout
        try mailstore("draft", "list", "--account", "work")
        try mailstore("outbox", "--account", "work")
        try mailstore("project", "--view", "outbox", "--account", "work")
        XCTAssertEqual(try mailstore("stats", "--json").stdout, before)
    }

    /// A page ending at mail dated before 1970 prints a cursor that starts with '-': given back as printed (`--cursor
    /// -1000000.…`, two arguments) it is the cursor, not "Missing value for '--cursor'" (the audit's epoch-0 mail from
    /// a zone east of UTC).
    func testACursorOfMailDatedBefore1970IsTakenAsPrinted() throws {
        try mailstore("init")
        let mbox = (0..<3).map { i in
            "From a@example.org Mon Jan  1 00:00:00 1968\nFrom: a\(i)@example.org\nTo: b@example.org\nSubject: old \(i)\n"
                + "Message-ID: <old\(i)@example.org>\nDate: Thu, 1 Jan 1970 0\(i):00:00 +0300\n\nold mail \(i)\n"
        }.joined(separator: "\n")
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("old.mbox")))
        try mailstore("import", "--mbox", dir.file("old.mbox"), "--folder", "INBOX", "--account", "a", "--quiet")
        let first = try mailstore("project", "--view", "threads", "--folder", "INBOX", "--limit", "1")
        let more = try XCTUnwrap(first.stderr.split(separator: "\n").first { $0.contains("more: --cursor ") }, first.stderr)
        let cursor = String(try XCTUnwrap(more.components(separatedBy: "more: --cursor ").last))
        XCTAssertTrue(cursor.hasPrefix("-"), "a date before 1970: \(cursor)")
        let second = try mailstore("project", "--view", "threads", "--folder", "INBOX", "--limit", "1", "--cursor", cursor)
        XCTAssertTrue(second.stdout.contains("old "), second.stdout)
        XCTAssertNotEqual(first.stdout, second.stdout, "the next page, not the first again")
    }

    /// The thread list's time column reads `TZ` as the C library (and `date`) does: POSIX and glibc forms Foundation
    /// took for UTC (`<+1345>-13:45`, `IST-5:30`) or got 28 hours wrong (`UTC+14`, 14 hours behind UTC) show the
    /// local time of a message from a moment ago.
    func testTheTimeColumnReadsTZAsTheCLibraryDoes() throws {
        try mailstore("init")
        let sent = Date().addingTimeInterval(-5)
        let header = DateFormatter()
        header.locale = Locale(identifier: "en_US_POSIX")
        header.timeZone = TimeZone(secondsFromGMT: 0)
        header.dateFormat = "EEE, d MMM yyyy HH:mm:ss '+0000'"
        let mbox = "From a@example.org Mon Jan  1 00:00:00 2024\nFrom: Ann <a@example.org>\nTo: b@example.org\nSubject: now\n"
            + "Message-ID: <now@example.org>\nDate: \(header.string(from: sent))\n\nbody\n"
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("now.mbox")))
        try mailstore("import", "--mbox", dir.file("now.mbox"), "--folder", "INBOX", "--account", "a", "--quiet")
        for (tz, offset) in [("<+1345>-13:45", 49_500), ("IST-5:30", 19_800), ("UTC+14", -50_400), ("UTC", 0)] {
            let shown = DateFormatter()
            shown.locale = Locale(identifier: "en_US_POSIX")
            shown.timeZone = TimeZone(secondsFromGMT: offset)
            shown.dateFormat = "h:mm a"
            var env = ProcessInfo.processInfo.environment
            env["MAILSTORE_HOME"] = store
            env["TZ"] = tz
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["project", "--view", "threads", "--folder", "INBOX"],
                                         environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            // The same local day as now (a message 5 s old): the row shows its local time.
            XCTAssertTrue(r.stdout.contains(" " + shown.string(from: sent)), "TZ=\(tz): \(shown.string(from: sent)) in \(r.stdout)")
        }
    }

    /// A folder whose name the terminal does not show as it is (a bidi override, a zero-width space, a trailing space)
    /// has its path in the folders view quoted for the shell, and that word, read back by bash, is the folder's name:
    /// the audit's `\u{202E}evil` showed as `evil`, with no path, and `--folder evil` found nothing.
    func testTheFoldersViewQuotesANameTheTerminalWouldNotShowAsItIs() throws {
        try mailstore("init")
        let mbox = "From a@example.org Mon Jan  1 00:00:00 2024\nFrom: a@example.org\nSubject: hi\nMessage-ID: <f@example.org>\n\nbody\n"
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("f.mbox")))
        let names = ["\u{202E}evil", "trail ", "a\u{200B}b"]
        for name in names {
            try mailstore("import", "--mbox", dir.file("f.mbox"), "--folder", name, "--account", "a", "--quiet")
        }
        let listing = try mailstore("project", "--view", "folders").stdout
        for name in names {
            let word = ShellWord.quoted(name)
            XCTAssertTrue(listing.contains("  " + word), "\(word) in \(listing)")
            let back = try ChildProcess.run("/bin/bash", ["-c", "printf %s " + word])
            XCTAssertEqual(back.stdout, name, "bash reads \(word) back as the name")
            let page = try mailstore("project", "--view", "threads", "--folder", back.stdout)
            XCTAssertTrue(page.stdout.contains("hi"), page.stdout)
        }
        XCTAssertEqual(ShellWord.quoted("Archive/2024"), "Archive/2024")
        XCTAssertEqual(ShellWord.quoted("a\u{1F600}\u{200D}\u{1F525}"), "$'a\u{1F600}\\u200D\u{1F525}'")
    }

    /// `move --to inbox` (any case) moves to the Inbox, as `project --folder inbox` and `sync --folder inbox` take the
    /// name (RFC 3501 section 5.1): it was "no folder 'inbox'", exit 4.
    func testMoveToInboxInAnyCaseMovesToTheInbox() throws {
        try mailstore("init")
        for (folder, subject) in [("INBOX", "here"), ("Archive", "there")] {
            let mbox = "From a@example.org Mon Jan  1 00:00:00 2024\nFrom: a@example.org\nSubject: \(subject)\n"
                + "Message-ID: <\(subject)@example.org>\n\nbody\n"
            try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("\(subject).mbox")))
            try mailstore("import", "--mbox", dir.file("\(subject).mbox"), "--folder", folder, "--account", "a", "--quiet")
        }
        let page = try mailstore("project", "--view", "threads", "--folder", "Archive", "--json").stdout
        let threads = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])?["threads"] as? [[String: Any]])
        let thread = try XCTUnwrap(threads.first?["id"] as? String)
        try mailstore("move", thread, "--to", "inbox")
        XCTAssertTrue(try mailstore("project", "--view", "threads", "--folder", "INBOX").stdout.contains("there"))
        XCTAssertFalse(try mailstore("project", "--view", "threads", "--folder", "Archive").stdout.contains("there"))
    }
}
