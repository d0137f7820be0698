import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// `mailstore notifications settings`, `vip`, `mute`/`unmute` and `notifications` through the real binary:
/// every change an event, defaults, reset, bad input refused.
final class NotificationsCommandTests: CLITestCase {
    func settings(_ extra: String...) throws -> [String: Any] {
        let r = try mailstore(["notifications", "settings", "--json"] + extra)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
    }

    @discardableResult
    func mailstore(_ args: [String], expect status: Int32 = 0) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stderr)")
        return r
    }

    func testSettingsVIPMuteAndResetAreEvents() throws {
        try mailstore(["init"])
        var s = try settings()
        XCTAssertEqual(s["categories"] as? [String: Bool], ["primary": true, "social": true, "promotions": true, "updates": true, "forums": true])
        XCTAssertNil(s["quietHours"])
        XCTAssertEqual(s["quietHoursPreset"] as? String, "22:00-07:00")
        try mailstore(["notifications", "settings", "--account", "work", "--disable"], expect: 4)
        try addAccount("work")
        s = try settings("--account", "work", "--disable", "--category", "promotions=off", "--quiet-hours", "22:00-07:00")
        XCTAssertEqual(s["accountEnabled"] as? Bool, false)
        XCTAssertEqual((s["categories"] as? [String: Bool])?["promotions"], false)
        XCTAssertEqual(s["quietHours"] as? String, "22:00-07:00")
        try mailstore(["vip", "add", "John@Example.com"])
        XCTAssertEqual(try mailstore(["vip", "list"]).stdout, "john@example.com\n")
        // A thread id no view knows (a typo) is exit 4 and mutes nothing.
        XCTAssertTrue(try mailstore(["mute", "T-123"], expect: 4).stderr.contains("no thread 'T-123'"))
        XCTAssertEqual(try settings()["mutedThreads"] as? [String], [])
        let md = dir.file("md")
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: md + "/" + sub, withIntermediateDirectories: true) }
        try Data("Message-ID: <m1@example.com>\r\nFrom: a@example.com\r\nSubject: hi\r\n\r\nhello\r\n".utf8)
            .write(to: URL(fileURLWithPath: md + "/cur/1:2,"))
        try fileAsSynced(maildir: md, account: "work")
        let page = try JSONSerialization.jsonObject(with: Data(try mailstore(["project", "--view", "threads", "--account", "work", "--json"]).stdout.utf8))
        let thread = try XCTUnwrap(((page as? [String: Any])?["threads"] as? [[String: Any]])?.first?["id"] as? String)
        try mailstore(["mute", thread])
        XCTAssertEqual(try settings()["mutedThreads"] as? [String], [thread])
        try mailstore(["unmute", thread])
        XCTAssertEqual(try settings()["mutedThreads"] as? [String], [])
        try mailstore(["unmute", "T-123"])
        try mailstore(["vip", "remove", "JOHN@example.com"])
        XCTAssertEqual(try mailstore(["vip", "list", "--json"]).stdout, "[]\n")
        // A name and address as a From line writes them: the address.
        try mailstore(["vip", "add", "\"Worth, Carl\" <CWorth@cworth.org>"])
        XCTAssertEqual(try mailstore(["vip", "list"]).stdout, "cworth@cworth.org\n")
        try mailstore(["vip", "remove", "Carl <cworth@cworth.org>"])
        XCTAssertEqual(try mailstore(["vip", "list", "--json"]).stdout, "[]\n")
        s = try settings("--no-quiet-hours")
        XCTAssertNil(s["quietHours"])
        s = try settings("--reset")
        XCTAssertEqual(s["disabledAccounts"] as? [String], [])
        XCTAssertEqual((s["categories"] as? [String: Bool])?["promotions"], true)
        // Every change is in the log.
        let log = try mailstore(["log", "--type", "NotificationPreferenceChanged"]).stdout
        for change in ["account-disabled", "category-off promotions", "quiet hours", "vip-added john@example.com", "thread-muted \(thread)",
                       "thread-unmuted \(thread)", "thread-unmuted T-123", "vip-removed john@example.com", "quiet-hours-cleared", "reset"] {
            XCTAssertTrue(log.contains(change), "\(change) in \(log)")
        }
        XCTAssertEqual(try mailstore(["notifications", "--json"]).stdout, "[]\n")
    }

    func testBadInputIsRefused() throws {
        try mailstore(["init"])
        for args in [["notifications", "settings", "--quiet-hours", "25:00-07:00"], ["notifications", "settings", "--category", "promotions=maybe"],
                     ["notifications", "settings", "--category", "spam=off"], ["notifications", "settings", "--enable"],
                     ["notifications", "settings", "--enable", "--disable", "--account", "a"], ["vip", "add", "not-an-address"],
                     ["vip", "add", "Carl <not-an-address>"], ["vip", "add", "a <a@b.c>, b <b@c.d>"], ["vip", "add", "Carl <a@b.c"],
                     ["vip", "add", "Carl <" + String(repeating: "a", count: 2_000) + "@b.c>"], // past the 1,024 bytes parsed
                     ["vip", "add", "Carl <" + String(repeating: "a", count: 300) + "@b.c>"], // an address past 254 bytes
                     ["vip", "add"], ["vip", "frobnicate", "a@b.c"], ["notifications", "settings", "--quiet-hours", "22:00-07:00", "--no-quiet-hours"]] {
            let r = try mailstore(args, expect: 64)
            XCTAssertFalse(r.stderr.isEmpty, "\(args)")
        }
    }

    /// Commits `addresses` as VIP adds in-process (as other processes, or another build, recorded them).
    func recordVIPs(_ addresses: [String]) throws {
        let store = try MailStore.open(at: self.store)
        _ = try store.commit(addresses.map {
            NewEvent(event: .notificationPreferenceChanged(NotificationPreferenceChanged(change: .vipAdded, value: $0, quietStart: 0, quietEnd: 0)),
                     account: "", stream: NotificationCoordinator.settingsStream, actor: .user)
        })
    }

    /// `vip add` prints the address added, one line; past the 1,000 VIPs kept it is refused (exit 7, the cap and what to
    /// do said, nothing recorded), and `vip list` says when a log holds adds past the cap that were left out.
    func testVIPAddPrintsOneLineAndPastTheCapIsRefused() throws {
        try mailstore(["init"])
        XCTAssertEqual(try mailstore(["vip", "add", "John <John@Example.com>"]).stdout, "added VIP john@example.com\n")
        try recordVIPs((2...1_000).map { "vip\($0)@vips.example" })
        let before = try mailstore(["log", "--type", "NotificationPreferenceChanged", "--json"]).stdout
        let r = try mailstore(["vip", "add", "extra1@vips.example"], expect: 7)
        XCTAssertTrue(r.stderr.contains("1000 VIPs already") && r.stderr.contains("remove some"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try mailstore(["log", "--type", "NotificationPreferenceChanged", "--json"]).stdout, before, "nothing recorded")
        var list = try mailstore(["vip", "list"])
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 1_000)
        XCTAssertFalse(list.stdout.contains("extra1"))
        XCTAssertEqual(list.stderr, "")
        XCTAssertEqual(try mailstore(["vip", "remove", "vip2@vips.example"]).stdout, "removed VIP vip2@vips.example\n")
        XCTAssertEqual(try mailstore(["vip", "add", "extra1@vips.example"]).stdout, "added VIP extra1@vips.example\n")
        // Adds past the cap in the log (racing past the check, or another build's): the first 1,000 kept, the rest said.
        try recordVIPs(["late1@vips.example", "late2@vips.example"])
        list = try mailstore(["vip", "list"])
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 1_000)
        XCTAssertTrue(list.stderr.contains("2 VIP add(s) were left out"), list.stderr)
    }
}
