import CorpusGenerator
import Foundation
import TestSupport
import XCTest

/// Thread actions from the command line: ids as arguments, or any number from a file or standard input
/// (`--ids-from`), and the bound on the command line's length.
final class ThreadActionCommandTests: CLITestCase {
    private func importedThreads() throws -> [String] {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 120, outputDirectory: dir.file("md"), seed: 11))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let out = try mailstore("project", "--view", "threads", "--account", "demo", "--all", "--json").stdout
        let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        return (page["threads"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    private func starred() throws -> Set<String> {
        let out = try mailstore("project", "--view", "threads", "--account", "demo", "--all", "--json").stdout
        let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        return Set((page["threads"] as? [[String: Any]] ?? []).filter { $0["isStarred"] as? Bool == true }.compactMap { $0["id"] as? String })
    }

    func testIDsFromAFileOrStandardInputJoinTheArguments() throws {
        let ids = try importedThreads()
        XCTAssertGreaterThan(ids.count, 12)
        let before = try starred()
        let fresh = ids.filter { !before.contains($0) }
        XCTAssertGreaterThan(fresh.count, 9)
        // A file: blanks around ids, CRLF, empty lines and comments are skipped; an unknown id fails alone.
        let file = dir.file("ids.txt")
        let listed = "# to star\r\n  \(fresh[0])\t\r\n\n\(fresh[1])\n\(fresh[2])\r\nno-such-thread\n"
        try Data(listed.utf8).write(to: URL(fileURLWithPath: file))
        let r = try mailstore("star", fresh[3], "--ids-from", file, "--json", expect: 4)
        let outcome = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let actions = try XCTUnwrap(outcome["actions"] as? [[String: Any]])
        XCTAssertEqual(actions.count, 1)
        XCTAssertEqual(Set(actions[0]["threads"] as? [String] ?? []), Set(fresh[0...3]))
        XCTAssertEqual((outcome["failures"] as? [[String: Any]])?.compactMap { $0["thread"] as? String }, ["no-such-thread"])
        XCTAssertEqual(try starred(), before.union(fresh[0...3]))
        // Standard input.
        try mailstore("star", "--ids-from", "-", stdin: "\(fresh[4])\n\(fresh[5])")
        XCTAssertEqual(try starred(), before.union(fresh[0...5]))
        // Only comments and blank lines: nothing to act on.
        let none = try mailstore("star", "--ids-from", "-", stdin: "# nothing\n\n", expect: 64)
        XCTAssertTrue(none.stderr.contains("give at least one thread id"), none.stderr)
    }

    /// docs/cli.md, spec AC-U-04: in a batch, a thread with nothing to do (starred already) fails alone: named in
    /// `failures` with its reason and on stderr (with `--json` too), left out of the action's threads, the others
    /// applied; the exit status is the first failure's (7, a refusal), as when it is the only thread.
    func testABatchThreadWithNothingToDoIsAFailureNamedOnStderr() throws {
        let ids = try importedThreads()
        let before = try starred()
        let fresh = ids.filter { !before.contains($0) }
        XCTAssertGreaterThan(fresh.count, 3)
        try mailstore("star", fresh[1])
        let alone = try mailstore("star", fresh[1], expect: 7)
        XCTAssertTrue(alone.stderr.contains("nothing to do: these threads are starred already"), alone.stderr)
        let r = try mailstore("star", fresh[0], fresh[1], fresh[2], "--json", expect: 7)
        let outcome = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let actions = try XCTUnwrap(outcome["actions"] as? [[String: Any]])
        XCTAssertEqual(actions.compactMap { $0["threads"] as? [String] }, [[fresh[0], fresh[2]]])
        let failures = try XCTUnwrap(outcome["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.compactMap { $0["thread"] as? String }, [fresh[1]])
        XCTAssertTrue((failures.first?["reason"] as? String)?.contains("nothing to do: these threads are starred already") == true, "\(failures)")
        XCTAssertTrue(r.stderr.contains("thread \(fresh[1]): "), r.stderr)
        XCTAssertEqual(try starred(), before.union([fresh[0], fresh[1], fresh[2]]))
        // Without --json: the action's id on stdout, the failure on stderr.
        let plain = try mailstore("unstar", fresh[0], fresh[3], expect: 7)
        XCTAssertEqual(plain.stdout.split(separator: "\n").count, 1, plain.stdout)
        XCTAssertTrue(plain.stderr.contains("thread \(fresh[3]): ") && plain.stderr.contains("not starred"), plain.stderr)
    }

    /// On mail of an account with no server (an import), an action and its undo's inverse are complete at once:
    /// nothing is left pending that no write-back could ever send; `actions` lists every account's, such a one's too.
    func testAnImportedAccountsActionAndItsUndoAreCompleteAtOnce() throws {
        let threads = try importedThreads()
        let id = String(try mailstore("star", threads[0]).stdout.split(separator: "\n").last ?? "")
        XCTAssertTrue(try mailstore("actions").stderr.contains("(no pending actions)"))
        XCTAssertTrue(try starred().contains(threads[0]))
        try mailstore("undo", id)
        XCTAssertTrue(try mailstore("actions").stderr.contains("(no pending actions)"), "the inverse is not left pending")
        XCTAssertTrue(try mailstore("actions", "--account", "demo").stderr.contains("(no pending actions)"))
        XCTAssertFalse(try starred().contains(threads[0]))
    }

    /// The id `undo` prints (its `ActionUndone`, in the undone action's stream) leads `history --action` to the undone
    /// action, its undo and the inverse (it had been exit 4, "nothing in the log touches"); the inverse's line names
    /// the action it undoes.
    func testHistoryOfTheUndosIDShowsTheUndoneActionAndItsInverse() throws {
        let ids = try importedThreads()
        let fresh = try XCTUnwrap(ids.first { !(try starred()).contains($0) })
        let star = String(try mailstore("star", fresh).stdout.split(separator: "\n").last ?? "")
        let undo = String(try mailstore("undo", star).stdout.split(separator: "\n").last ?? "")
        let history = try mailstore("history", "--action", undo).stdout
        for text in ["ThreadStarred", "ActionUndone", "ThreadUnstarred", "(the undo of action \(star))"] {
            XCTAssertTrue(history.contains(text), "history lacks \(text): \(history)")
        }
    }

    /// A list that breaks a bound, cannot be read or holds no id is refused whole (exit 64, nothing done) in one
    /// `mailstore: error:` line saying why, without the usage (the command line's form was right; the usage had buried
    /// the reason); a command line with no thread at all, or `--ids-from` without its value, still shows the usage.
    func testABadIDListIsRefusedWithItsLineAndNothingIsDone() throws {
        let ids = try importedThreads()
        let before = try starred()
        let fresh = try XCTUnwrap(ids.first { !before.contains($0) })
        func saysWhyAlone(_ r: ChildProcess.Result, _ expected: String) {
            XCTAssertTrue(r.stderr.hasPrefix("mailstore: error: --ids-from: "), r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), r.stderr)
            XCTAssertFalse(r.stderr.contains("Usage:"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        func refused(_ bytes: [UInt8], _ expected: String) throws {
            let file = dir.file("bad.txt")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let r = try mailstore("star", fresh, "--ids-from", file, expect: 64)
            saysWhyAlone(r, expected)
            XCTAssertEqual(try starred(), before, "a refused list acts on nothing, the arguments' ids neither")
        }
        try refused(Array("\(fresh)\n\n\(String(repeating: "a", count: 257))\n".utf8), "line 3 of")
        try refused(Array("\(fresh)\n".utf8) + [0x66, 0xFF, 0x0A], "line 2 of")
        try refused(Array(String(repeating: "0123456789abcdef\n", count: 100_001).utf8), "more than 100000 thread ids")
        try refused([UInt8](repeating: 0x0A, count: (8 << 20) + 1), "over 8 MiB")
        let missing = try mailstore("star", "--ids-from", dir.file("nope.txt"), expect: 64)
        saysWhyAlone(missing, "cannot read")
        let folder = try mailstore("star", "--ids-from", dir.path, expect: 64)
        saysWhyAlone(folder, "cannot read")
        let empty = try mailstore("star", "--ids-from", "-", stdin: "# nothing\n", expect: 64)
        saysWhyAlone(empty, "holds no thread id")
        XCTAssertEqual(try starred(), before)
        for args in [["star"], ["star", "--ids-from"], ["star", fresh, "--bogus"]] {
            let r = try mailstore(args, expect: 64)
            XCTAssertTrue(r.stderr.contains("Usage: mailstore star"), "\(args): \(r.stderr)")
        }
    }

    func testACommandLineOverTheBoundIsRefusedBeforeParsing() throws {
        try mailstore("init")
        let many = (0..<4_096).map { String(format: "%016x", $0) }
        let r = try mailstore(["archive"] + many, expect: 64)
        XCTAssertTrue(r.stderr.contains("4097 arguments, over 4096"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--ids-from"), r.stderr)
        // Below the bound the command line is parsed: every id is unknown (exit 4), the first named.
        let atBound = try mailstore(["archive"] + many.prefix(1_000), expect: 4)
        XCTAssertTrue(atBound.stderr.contains("no thread '0000000000000000'"), atBound.stderr)
    }

    /// `--push` with the server out of reach says the action stays recorded and queued (exit 5): it had said only
    /// "cannot connect", as if the action were lost.
    func testAPushThatCannotReachTheServerSaysTheActionStaysQueued() throws {
        try mailstore("init")
        let pw = dir.file("pw-work")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: pw))
        chmod(pw, 0o600)
        try mailstore("account", "add", "work", "--email", "me@example.com", "--host", "127.0.0.1", "--port", "9", "--security", "tls",
                      "--password-file", pw)
        _ = try generateCorpus(CorpusOptions(messages: 5, outputDirectory: dir.file("md"), seed: 12))
        try fileAsSynced(maildir: dir.file("md"), account: "work")
        let out = try mailstore("project", "--view", "threads", "--account", "work", "--all", "--json").stdout
        let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let thread = try XCTUnwrap((page["threads"] as? [[String: Any]])?.first?["id"] as? String)
        let r = try mailstore("star", thread, "--push", expect: 5)
        XCTAssertTrue(r.stderr.contains("cannot connect") && r.stderr.contains("is recorded and shown; it stays queued"), r.stderr)
        XCTAssertTrue(try mailstore("actions").stdout.contains("star  pending"))
    }
}
