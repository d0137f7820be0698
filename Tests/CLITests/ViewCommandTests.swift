import CorpusGenerator
import EventLog
import Foundation
import MailStore
@testable import MailStoreCLI
import TestSupport
import XCTest

final class ViewCommandTests: CLITestCase {
    func importGenerated(_ n: Int) throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: n, outputDirectory: dir.file("md"), seed: 5))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
    }

    func testProjectThreadsTableJSONAndCursor() throws {
        try importGenerated(300)
        let table = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "5")
        XCTAssertEqual(table.stdout.split(separator: "\n").count, 5)
        XCTAssertTrue(table.stderr.contains("more: --cursor "))
        let json = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "5", "--json")
        let page = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual((page["threads"] as! [Any]).count, 5)
        XCTAssertEqual(page["hasMore"] as? Bool, true)
        let cursor = try XCTUnwrap(page["nextCursor"] as? String)
        let next = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "5", "--cursor", cursor, "--json")
        let page2 = try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as! [String: Any]
        let ids1 = Set((page["threads"] as! [[String: Any]]).map { $0["id"] as! String })
        let ids2 = Set((page2["threads"] as! [[String: Any]]).map { $0["id"] as! String })
        XCTAssertTrue(ids1.isDisjoint(with: ids2))
        let all = try mailstore("project", "--view", "threads", "--account", "demo", "--all", "--json")
        let allPage = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(allPage["hasMore"] as? Bool, false)
        XCTAssertGreaterThan((allPage["threads"] as! [Any]).count, 10)
        try mailstore("project", "--view", "threads", "--account", "nobody", "--json", expect: 4)
        try addAccount("nobody")
        let empty = try mailstore("project", "--view", "threads", "--account", "nobody", "--json")
        XCTAssertEqual(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"hasMore":false,"nextCursor":null,"threads":[]}"#)
        try mailstore("project", "--view", "threads", "--category", "forums", expect: 64)
        try mailstore("project", "--view", "nope", expect: 64)
        let missing = try mailstore("project", "--view", "threads", "--account", "demo", "--folder", "Nope", expect: 4)
        XCTAssertTrue(missing.stderr.contains("no folder 'Nope'"))
        try mailstore("show", "0123456789abcdef", expect: 4)
    }

    /// `--all` writes page after page as it reads them: the JSON and the table are those of one page holding
    /// every thread, whatever the page size; a page over 10,000 rows is refused.
    func testAllPagesStreamedEqualOnePageOfEverything() throws {
        try importGenerated(300)
        let one = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "10000", "--json").stdout
        XCTAssertTrue(one.hasPrefix(#"{"hasMore":false,"nextCursor":null,"threads":[{"#), one)
        for size in ["1", "7", "25"] {
            let all = try mailstore("project", "--view", "threads", "--account", "demo", "--all", "--limit", size, "--json").stdout
            XCTAssertEqual(all, one, "--all --limit \(size)")
        }
        let table = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "10000").stdout
        XCTAssertEqual(try mailstore("project", "--view", "threads", "--account", "demo", "--all", "--limit", "3").stdout, table)
        XCTAssertGreaterThan(table.split(separator: "\n").count, 20)
        try addAccount("nobody")
        let empty = try mailstore("project", "--view", "threads", "--account", "nobody", "--all", "--json")
        XCTAssertEqual(empty.stdout, #"{"hasMore":false,"nextCursor":null,"threads":[]}"# + "\n")
        let tooBig = try mailstore("project", "--view", "threads", "--limit", "10001", expect: 64)
        XCTAssertTrue(tooBig.stderr.contains("--limit must be between 1 and 10000"), tooBig.stderr)
    }

    func testOtherViewsPrint() throws {
        try importGenerated(200)
        let folders = try mailstore("project", "--view", "folders", "--account", "demo")
        XCTAssertTrue(folders.stdout.hasPrefix("demo         Inbox"), folders.stdout)
        XCTAssertTrue(folders.stdout.contains("—"))
        let unread = try mailstore("project", "--view", "unread", "--account", "demo", "--json")
        let obj = try JSONSerialization.jsonObject(with: Data(unread.stdout.utf8)) as! [String: Any]
        XCTAssertNotNil(obj["badge"] as? Int)
        try mailstore("project", "--view", "outbox", "--account", "demo")
        try mailstore("project", "--view", "dedup", "--account", "demo")
    }

    /// A new store with a maildir imported: one message per entry (`folder` "" is the Inbox, the maildir's root), the
    /// n-th (from 1) with Message-ID `<n@x>` and the maildir flags given.
    private func importMaildir(_ messages: [(folder: String, subject: String, flags: String)]) throws {
        try mailstore("init")
        for (i, m) in messages.enumerated() {
            let cur = dir.file("md/" + (m.folder.isEmpty ? "" : m.folder + "/") + "cur")
            try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
            try Data("Subject: \(m.subject)\nMessage-ID: <\(i + 1)@x>\n\nbody\n".utf8)
                .write(to: URL(fileURLWithPath: cur + "/\(i + 1).host:2,\(m.flags)"))
        }
        try mailstore("import", "--maildir", dir.file("md"), "--quiet")
    }

    /// Two subfolders of the same name in different folders are told apart: each is listed under its folder,
    /// indented, with the path `--folder` takes; a folder at the top shows no path.
    func testFoldersListSubfoldersUnderTheirFolderWithThePathToGive() throws {
        try importMaildir(["bar", "bar/baz", "foo", "foo/baz"].map { (folder: $0, subject: $0, flags: "S") })
        let lines = try mailstore("project", "--view", "folders").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().map(String.init) },
                       [["Inbox", "inbox", "0"], ["Starred", "flagged", "—", "'\\Starred'"], ["bar", "custom", "—"], ["baz", "custom", "—", "bar/baz"],
                        ["foo", "custom", "—"], ["baz", "custom", "—", "foo/baz"]], lines.joined(separator: "\n"))
        XCTAssertTrue(lines[3].hasPrefix("local          baz "), "indented under bar: \(lines[3])")
        XCTAssertFalse(lines.contains { $0.hasSuffix(" ") }, "no trailing blanks")
        // The unread view checks the folder it is given as the thread list does; `inbox` is the Inbox.
        let unread = try mailstore("project", "--view", "unread", "--folder", "inbox").stdout
        XCTAssertTrue(unread.contains("\nINBOX "), unread)
        XCTAssertFalse(unread.split(separator: "\n").contains { $0.hasSuffix(" ") }, "no trailing blanks")
        let wrong = try mailstore("project", "--view", "unread", "--folder", "baz", expect: 4)
        XCTAssertTrue(wrong.stderr.contains("no folder 'baz'"), wrong.stderr)
        let sub = try mailstore("project", "--view", "threads", "--folder", "foo/baz")
        XCTAssertTrue(sub.stdout.contains("foo/baz"), sub.stdout)
        XCTAssertFalse(sub.stdout.contains("bar/baz"), sub.stdout)
    }

    /// A folder named `Starred` is its own folder in the folders view and `--folder Starred`, beside the virtual Starred
    /// folder, listed with the id to give it (`'\Starred'`), which lists the flagged mail of every folder.
    func testAFolderNamedStarredIsItsOwnBesideTheVirtualStarredFolder() throws {
        try importMaildir([(folder: "", subject: "mail 1", flags: "FS"), (folder: "Starred", subject: "mail 2", flags: "S"),
                           (folder: "Starred", subject: "mail 3", flags: "FS")])
        let lines = try mailstore("project", "--view", "folders").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().map(String.init) },
                       [["Inbox", "inbox", "0"], ["Starred", "flagged", "—", "'\\Starred'"], ["Starred", "custom", "—"]],
                       lines.joined(separator: "\n"))
        let own = try mailstore("project", "--view", "threads", "--folder", "Starred").stdout
        XCTAssertTrue(own.contains("mail 2") && own.contains("mail 3") && !own.contains("mail 1"), own)
        let starred = try mailstore("project", "--view", "threads", "--folder", "\\Starred").stdout
        XCTAssertTrue(starred.contains("mail 1") && starred.contains("mail 3") && !starred.contains("mail 2"), starred)
        let json = try mailstore("project", "--view", "folders", "--json").stdout
        XCTAssertTrue(json.contains(#""id":"\\Starred""#) && json.contains(#""id":"Starred""#), json)
    }

    /// Folders named like the views' own rows (`#account`, `#badge`, `\Starred`) are read and counted as themselves: the
    /// unread view's whole-account total and badge are not theirs, `--folder '\Starred'` reads the folder, and the
    /// virtual Starred folder is listed (and read) as `Starred`. `#account` had shown the account's total as its own.
    func testFoldersNamedLikeTheViewsOwnRowsAreReadAsThemselves() throws {
        try importMaildir([(folder: "", subject: "mail 1", flags: "F"), (folder: "#account", subject: "mail 2", flags: ""),
                           (folder: "#badge", subject: "mail 3", flags: ""), (folder: "\\Starred", subject: "mail 4", flags: "")])
        let json = try mailstore("project", "--view", "unread", "--json").stdout
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        XCTAssertEqual(report["badge"] as? Int, 1, json)
        XCTAssertEqual((report["total"] as? [String: Int])?["all"], 4, json)
        let rows = try XCTUnwrap(report["folders"] as? [[String: Any]], json)
        let all = Dictionary(uniqueKeysWithValues: rows.map { ($0["folder"] as? String ?? "?", ($0["counts"] as? [String: Int])?["all"] ?? -1) })
        XCTAssertEqual(all, ["INBOX": 1, "#account": 1, "#badge": 1, "\\Starred": 1], json)
        let own = try mailstore("project", "--view", "threads", "--folder", "\\Starred").stdout
        XCTAssertTrue(own.contains("mail 4") && !own.contains("mail 1"), own)
        let starred = try mailstore("project", "--view", "threads", "--folder", "Starred").stdout
        XCTAssertTrue(starred.contains("mail 1") && !starred.contains("mail 4"), starred)
        let lines = try mailstore("project", "--view", "folders").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().map(String.init) },
                       [["Inbox", "inbox", "1"], ["Starred", "flagged", "—", "Starred"], ["#account", "custom", "—"], ["#badge", "custom", "—"],
                        ["\\Starred", "custom", "—", "'\\Starred'"]], lines.joined(separator: "\n"))
    }

    /// The folders view's columns line up by display width whatever the names hold: an emoji takes two columns, a
    /// combining mark none (`☕` and `🚀` had counted one, the role column then one column to the right of the others').
    func testFolderColumnsLineUpAfterEmojiAndCombiningMarks() throws {
        try importMaildir(["☕ Coffee", "🚀 Launch", "Cafe\u{301}", "徐丽"].map { (folder: $0, subject: "s", flags: "S") })
        let lines = try mailstore("project", "--view", "folders").stdout.split(separator: "\n").map(String.init)
        func row(_ name: String, columns: Int) -> String {
            "local        " + name + String(repeating: " ", count: 28 - columns) + " custom    —"
        }
        for (name, columns) in [("☕ Coffee", 9), ("🚀 Launch", 9), ("Cafe\u{301}", 4), ("徐丽", 4)] {
            XCTAssertTrue(lines.contains(row(name, columns: columns)), "\(name): \(lines.joined(separator: "\n"))")
        }
    }

    /// The dedup and contacts views page as the thread list does: `--limit` rows, `more: --cursor X` on stderr,
    /// and the pages followed to the end are `--all`, line for line, each row once. (The corpus's ~25 duplicates are
    /// paged 2 at a time, its ~330 contacts 7 at a time: dozens of cursors each, not one `mailstore` run per 2 contacts.)
    func testDedupAndContactsPageByCursorToWhatAllPrints() throws {
        try importGenerated(600)
        for (view, limit) in [("dedup", 2), ("contacts", 7)] {
            let all = try mailstore("project", "--view", view, "--account", "demo", "--all").stdout
            let rows = all.split(separator: "\n").filter { !$0.hasPrefix("Contacts of") }
            XCTAssertGreaterThan(rows.count, 5, "\(view): \(all)")
            var paged: [Substring] = []
            var cursor: String?
            var pages = 0
            repeat {
                let r = try mailstore(["project", "--view", view, "--account", "demo", "--limit", String(limit)] + (cursor.map { ["--cursor", $0] } ?? []))
                let lines = r.stdout.split(separator: "\n").filter { !$0.hasPrefix("Contacts of") && !$0.hasPrefix("(no message") }
                XCTAssertLessThanOrEqual(lines.count, limit, r.stdout)
                paged += lines
                cursor = r.stderr.split(separator: "\n").first { $0.hasPrefix("more: --cursor ") }.map { String($0.dropFirst("more: --cursor ".count)) }
                pages += 1
            } while cursor != nil && pages < 1_000
            XCTAssertEqual(paged, rows, view)
            XCTAssertGreaterThan(pages, 10, "\(view): many pages, many cursors")
            let first = try mailstore("project", "--view", view, "--account", "demo", "--json")
            let obj = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8))
            let count = view == "dedup" ? (obj as? [Any])?.count : ((obj as? [[String: Any]])?.first?["contacts"] as? [Any])?.count
            XCTAssertEqual(count, 25, "the default page is 25 rows")
            XCTAssertTrue(first.stderr.contains("more: --cursor "))
            try mailstore("project", "--view", view, "--account", "demo", "--cursor", "zz\u{1b}[31m", expect: 64)
        }
        try mailstore("project", "--view", "dedup", "--account", "demo", "--cursor", "1.61", expect: 64)
        // Another view's cursor is refused, not taken as this one's form: the contacts' had paged the thread list on.
        let contactsCursor = try XCTUnwrap(try mailstore("project", "--view", "contacts", "--account", "demo", "--limit", "2")
            .stderr.split(separator: "\n").first { $0.hasPrefix("more: --cursor ") }).dropFirst("more: --cursor ".count)
        try mailstore("project", "--view", "threads", "--account", "demo", "--cursor", String(contactsCursor), expect: 64)
        try mailstore("project", "--view", "dedup", "--account", "demo", "--cursor", String(contactsCursor), expect: 64)
        try mailstore("project", "--view", "unread", "--account", "demo", "--cursor", "1.61", expect: 64)
        let escaped = try mailstore("project", "--view", "contacts", "--account", "demo", "--cursor", "x\u{1b}]0;t\u{07}", expect: 64)
        XCTAssertFalse(escaped.stderr.contains("\u{1b}"), "a cursor is echoed sanitised")
    }

    /// `--all` writes an account's contacts a page at a time (`ContactListing`, memory bounded by a page): in pages
    /// of any size, the JSON and the lines are byte for byte the whole list sorted and encoded at once.
    func testContactsAllWrittenInPagesIsTheWholeListEncodedAtOnce() throws {
        try importGenerated(300)
        let cli = try mailstore("project", "--view", "contacts", "--account", "demo", "--all", "--json").stdout
        let opened = try MailStore.open(at: store, readOnly: true)
        let every = try opened.contacts(account: "demo")
        XCTAssertGreaterThan(every.count, 10)
        XCTAssertGreaterThan(Set(every.map(\.count)).count, 2, "counts that order them, ties among them")
        struct Row: Encodable { var account: String; var contacts: [Contact] }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let whole = String(decoding: try e.encode([Row(account: "demo", contacts: every)]), as: UTF8.self) + "\n"
        XCTAssertEqual(cli, whole)
        let lines = "Contacts of demo: \(every.count)\n" + every.map { ContactListing.line($0) + "\n" }.joined()
        XCTAssertEqual(try mailstore("project", "--view", "contacts", "--account", "demo", "--all").stdout, lines)
        let twice = String(decoding: try e.encode([Row(account: "demo", contacts: every), Row(account: "demo", contacts: every)]),
                           as: UTF8.self) + "\n"
        for size in [1, 3, 7, every.count, every.count + 5] {
            func written(_ json: Bool, _ accounts: [String]) throws -> String {
                var data = Data()
                try ContactListing(pageSize: size, json: json) { try opened.contactsPage(account: $0, after: $1, limit: $2) }
                    .write(accounts: accounts) { data.append($0) }
                return String(decoding: data, as: UTF8.self)
            }
            XCTAssertEqual(try written(true, ["demo"]), whole, "pages of \(size)")
            XCTAssertEqual(try written(false, ["demo"]), lines, "pages of \(size)")
            XCTAssertEqual(try written(true, ["demo", "demo"]), twice, "pages of \(size), two accounts")
        }
    }

    func testAsOfShowsThePastAndLeavesLiveViewsAlone() throws {
        try importGenerated(100)
        let past = try mailstore("project", "--view", "threads", "--account", "demo", "--as-of", "5", "--all", "--json")
        let obj = try JSONSerialization.jsonObject(with: Data(past.stdout.utf8)) as! [String: Any]
        XCTAssertEqual((obj["threads"] as! [Any]).count, 0, "sequence 5 is before any mail (folders come first)")
        try mailstore("project", "--view", "threads", "--as-of", "2001-01-01T00:00:00Z", "--account", "demo")
        // The times `log --since` reads too, each at the end of its span: a day, a minute, now.
        func threads(asOf point: String) throws -> Int {
            let page = try mailstore("project", "--view", "threads", "--account", "demo", "--as-of", point, "--all", "--json")
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(page.stdout.utf8)) as? [String: Any])["threads"].map { ($0 as! [Any]).count } ?? -1
        }
        XCTAssertEqual(try threads(asOf: "2001-01-01"), 0)
        XCTAssertEqual(try threads(asOf: "2001-01-01 23:59"), 0)
        let live = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try mailstore("project", "--view", "threads", "--account", "demo", "--all", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(try threads(asOf: "now"), (live["threads"] as! [Any]).count)
        XCTAssertGreaterThan(try threads(asOf: "now"), 0)
        // A second written as `log` prints it, `Z` or not, is the whole second, as `log --until` takes it.
        let last = try mailstore("log", "--last", "1", "--json").stdout
        let recorded = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["recordedAt"] as? String)
        let second = String(recorded.prefix(19))
        XCTAssertEqual(try threads(asOf: second + "Z"), (live["threads"] as! [Any]).count, second)
        XCTAssertEqual(try threads(asOf: second), (live["threads"] as! [Any]).count, second)
        let bad = try mailstore("project", "--view", "threads", "--as-of", "soon", expect: 64)
        XCTAssertTrue(bad.stderr.contains("'soon' is neither a sequence number nor a time") && bad.stderr.contains("YYYY-MM-DDTHH:MM"), bad.stderr)
    }

    /// Kills `p` (SIGKILL) once `seen` names what it made (checked every 5 ms, for at most 10 s) or it ended, and waits
    /// for it: what `seen` named, nil when it was never seen.
    private func killed(_ p: Process, once seen: () -> String?) -> String? {
        var found: String?
        for _ in 0..<2_000 where found == nil && p.isRunning {
            found = seen()
            if found == nil { usleep(5_000) }
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return found
    }

    /// A replay killed midway leaves the old views serving; the rerun completes and verify --views is clean.
    func testReplayKilledMidwayKeepsTheOldViews() throws {
        try importGenerated(600)
        try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "1")
        let current = try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = ["replay", "--quiet"]
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // Killed once it has written into the generation it builds (`views/gen-N.building`): midway, whatever the
        // machine's speed (a sleep needed a corpus big enough that it still ran on a fast one).
        func building() -> String? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/views")) ?? []
            return names.first { $0.hasSuffix(".building") && FileManager.default.fileExists(atPath: store + "/views/" + $0 + "/data.mdb") }
        }
        let seen = killed(p, once: building)
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "the replay was still running when killed")
        XCTAssertNotNil(seen, "no generation seen building in \(store)/views")
        XCTAssertEqual(try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8), current)
        let served = try mailstore("project", "--view", "threads", "--account", "demo", "--limit", "3")
        XCTAssertEqual(served.stdout.split(separator: "\n").count, 3)
        let replay = try mailstore("replay", "--quiet")
        XCTAssertTrue(replay.stdout.hasPrefix("Rebuilt all views from"))
        let verify = try mailstore("verify", "--views")
        XCTAssertTrue(verify.stdout.hasPrefix("OK: every view equals a rebuild"), verify.stdout)
    }
    /// `verify --views` rebuilds in the store's `scratch/` folder, not in `$TMPDIR` (the rebuilt views and index are
    /// a copy of the store's mail); one killed midway leaves its folder there, and the next run removes it.
    func testVerifyViewsWorksInTheStoresScratchFolderAndWhatAKilledOneLeftGoes() throws {
        try importGenerated(600)
        let tmp = dir.file("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let scratch = store + "/scratch"
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["TMPDIR"] = tmp
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = ["verify", "--views", "--quiet"]
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // Killed once its rebuild has written into the scratch folder.
        func rebuilding() -> String? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
            return names.first { $0.hasPrefix("verify-") && !$0.hasSuffix(".lock")
                && FileManager.default.fileExists(atPath: scratch + "/" + $0 + "/views/data.mdb") }
        }
        let left = killed(p, once: rebuilding)
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "verify --views was still running when killed")
        let name = try XCTUnwrap(left, "no rebuild seen in \(scratch)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch + "/" + name + "/views/data.mdb"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [])
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["verify", "--views"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("OK: every view equals a rebuild"), r.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch), [], "the killed run's folder and this run's are gone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [])
    }
}
