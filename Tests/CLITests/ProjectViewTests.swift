import CorpusGenerator
import Foundation
import MailStore
import TestSupport
import XCTest

/// `mailstore project --view X` prints view X (text and JSON) for every view, never another view.
final class ProjectViewTests: CLITestCase {
    /// A store with imported mail (account demo) and a configured account (work) with a draft.
    private func prepare() throws -> String {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 60, outputDirectory: dir.file("md"), seed: 7))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let pw = dir.file("pw")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: pw))
        chmod(pw, 0o600)
        try mailstore("account", "add", "work", "--email", "me@example.com", "--host", "imap.example.com",
                      "--security", "tls", "--password-file", pw)
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

    /// A view that is not one is a usage error listing the views.
    func testUnknownViewIsAUsageError() throws {
        try mailstore("init")
        let r = try mailstore("project", "--view", "nope", expect: 64)
        XCTAssertTrue(r.stderr.contains("contacts"), r.stderr)
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
}
