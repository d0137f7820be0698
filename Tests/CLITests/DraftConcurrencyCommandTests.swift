import Foundation
import TestSupport
import XCTest

/// One draft in several processes at once: every edit saves a version of its own, in order; a draft in the outbox is
/// neither edited nor queued again, so what goes out is the version its queuing announced.
final class DraftConcurrencyCommandTests: CLITestCase {
    private func newDraft() throws -> String {
        try mailstore("init")
        try addAccount("work")
        let r = try mailstore("draft", "new", "--account", "work", "--to", "bob@example.com", "--subject", "v1", "--body", "first")
        return try XCTUnwrap(r.stdout.split(separator: "\n").last.map(String.init))
    }

    /// The draft versions in the log, in log order.
    private func versions(_ id: String) throws -> [Int] {
        try mailstore("log", "--stream", "draft/" + id, "--type", "DraftSaved", "--json").stdout.split(separator: "\n").map { line in
            let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try XCTUnwrap((event["payload"] as? [String: Any])?["draftVersion"] as? Int)
        }
    }

    /// Eight edits at once wrote versions 1,2,2,2,3,3,4,4,3 before each save checked the stream it read.
    func testEditsAtOnceEachSaveTheNextVersion() throws {
        let id = try newDraft()
        let script = #"for i in 1 2 3 4 5 6 7 8; do "$0" draft edit "$1" --body "edit $i" > /dev/null & done; wait"#
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run("/bin/sh", ["-c", script, BuiltProducts.executable("mailstore"), id], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try versions(id), Array(1...9))
        XCTAssertTrue(try mailstore("draft", "show", id).stdout.contains("9"), "the latest version is the last saved")
    }

    /// While `send` waits out its undo delay the draft is in the outbox: an edit or a second send is refused with how
    /// to take it back, and the queued version stays the one to go out.
    func testADraftInTheOutboxIsNotEditedNorQueuedTwice() throws {
        let id = try newDraft()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = ["send", id, "--undo-delay", "60"]
        p.environment = ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": store]) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        let deadline = Date().addingTimeInterval(20)
        while try !mailstore("log", "--stream", "draft/" + id).stdout.contains("MessageQueued") {
            XCTAssertLessThan(Date(), deadline, "send queued the draft")
            usleep(50_000)
        }
        let edit = try mailstore("draft", "edit", id, "--subject", "v2", expect: 7)
        XCTAssertTrue(edit.stderr.contains("is in the outbox (queued)") && edit.stderr.contains("mailstore send --undo \(id)"), edit.stderr)
        let again = try mailstore("send", id, "--undo-delay", "0", expect: 7)
        XCTAssertTrue(again.stderr.contains("is in the outbox (queued)"), again.stderr)
        XCTAssertEqual(try versions(id), [1], "nothing saved")
        XCTAssertEqual(try mailstore("log", "--stream", "draft/" + id, "--type", "MessageQueued").stdout.split(separator: "\n").count, 1)
        try mailstore("send", "--undo", id)
        p.waitUntilExit()
        let edited = try mailstore("draft", "edit", id, "--subject", "v2", "--detach", "nothing.pdf")
        XCTAssertEqual(try versions(id), [1, 2], "taken back, it is edited again")
        XCTAssertTrue(edited.stderr.contains("--detach nothing.pdf: the draft has no attachment of that name"), edited.stderr)
        // One account: `outbox` needs no --account.
        XCTAssertTrue(try mailstore("outbox").stdout.hasPrefix("Outbox of work: 0 queued or failed"))
        // An id that is no draft is exit 4 (undo and cancel said "not in the outbox", exit 7).
        try mailstore("send", "--undo", "ffffffffffffffff", expect: 4)
        try mailstore("outbox", "cancel", "ffffffffffffffff", expect: 4)
        // A retry of a draft not in the outbox is an error (it printed `ID  draft`, exit 0).
        let retry = try mailstore("outbox", "retry", id, expect: 4)
        XCTAssertTrue(retry.stderr.contains("is not in the outbox"), retry.stderr)
    }
}
