import Foundation
import TestSupport
import XCTest

/// The wall clock stepped under a running `mailstore` (an NTP step, a VM resumed; `WallClockShim`), the monotonic clock
/// going on: every wait is measured on the monotonic clock, so a step back stretches none and a step forward cuts none
/// short; times recorded while the clock was far ahead are not waited for.
final class ClockStepTests: CLITestCase {
    private var shim: WallClockShim!
    private var started: [Process] = []

    override func setUp() {
        super.setUp()
        do { shim = try WallClockShim(folder: dir.file("shim")) } catch { XCTFail("\(error)") }
    }

    override func tearDown() {
        for p in started where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        super.tearDown()
    }

    /// A store with account `work` whose IMAP and SMTP servers are a local port nothing listens on (no network), and a
    /// draft to send; returns the draft's id.
    private func storeWithDraft(smtpPasswordCommand: String? = nil) throws -> String {
        let port = String(try Self.closedPort())
        let pw = dir.file("pw")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: pw))
        chmod(pw, 0o600)
        try mailstore("init")
        try mailstore(["account", "add", "work", "--email", "me@example.com", "--host", "127.0.0.1", "--port", port, "--security", "tls",
                       "--password-file", pw, "--smtp-host", "127.0.0.1", "--smtp-port", port, "--smtp-security", "tls"]
                      + (smtpPasswordCommand.map { ["--smtp-password-command", $0] } ?? []))
        let r = try mailstore("draft", "new", "--account", "work", "--to", "bob@example.com", "--subject", "s", "--body", "b")
        return try XCTUnwrap(r.stdout.split(separator: "\n").last.map(String.init))
    }

    /// A loopback port nothing listens on.
    private static func closedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket: \(errno)") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw TestServerError("bind: \(errno)") }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// `mailstore ARGS` started in the background under the shim, its output in files of the test's folder.
    private func start(_ args: [String]) throws -> (process: Process, stdout: () -> String, stderr: () -> String) {
        let n = started.count
        let out = dir.file("out-\(n)"), err = dir.file("err-\(n)")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = args
        p.environment = shim.environment(home: store)
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: err)
        try p.run()
        started.append(p)
        func text(_ file: String) -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        return (p, { text(out) }, { text(err) })
    }

    /// `mailstore ARGS` under the shim, to its end.
    private func shifted(_ args: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: shim.environment(home: store))
    }

    /// A draft sent (`send --undo-delay 0`) while the clock stood a year ahead: queued again for want of a network, its
    /// due time recorded a year ahead; then the clock right again. Returns its id.
    private func queuedWhileAYearAhead() throws -> String {
        let id = try storeWithDraft()
        try shim.step(366 * 86_400)
        let send = try shifted(["send", id, "--undo-delay", "0"])
        XCTAssertEqual(send.status, 5, send.stderr)
        try shim.step(0)
        return id
    }

    private func ended(_ p: Process, within seconds: Double) -> Bool {
        Poll.until(seconds: seconds) { !p.isRunning }
    }

    /// `send` with an undo delay, the clock stepped back an hour while it waits: it goes when its delay is over on the
    /// monotonic clock, not an hour later (a wall-clock wait had held it for the step: an hour back, an hour, as the
    /// message's claim; a year back: a year).
    func testSendGoesWhenItsDelayIsOverThoughTheClockSteppedBack() throws {
        let id = try storeWithDraft()
        let send = try start(["send", id, "--undo-delay", "3s"])
        XCTAssertTrue(Poll.until(seconds: 30) { send.stderr().contains("queued \(id)") }, send.stderr())
        try shim.step(-3600)
        guard ended(send.process, within: 20) else { return XCTFail("send still waiting 20 s after its 3 s delay: \(send.stderr())") }
        XCTAssertEqual(send.process.terminationStatus, 5, send.stderr())
        XCTAssertTrue(send.stderr().contains("could not be reached") || send.stderr().contains("network"), send.stderr())
    }

    /// `send` with an undo delay, the clock stepped forward an hour while it waits: it does not go at once, and an undo
    /// (whose clock is stepped too) still takes it back (it went out at once, and the undo said "too late").
    func testSendCanBeUndoneInItsDelayThoughTheClockSteppedForward() throws {
        let id = try storeWithDraft()
        let send = try start(["send", id, "--undo-delay", "10s"])
        XCTAssertTrue(Poll.until(seconds: 30) { send.stderr().contains("queued \(id)") }, send.stderr())
        try shim.step(3600)
        let undo = try shifted(["send", "--undo", id])
        XCTAssertEqual(undo.status, 0, undo.stderr)
        guard ended(send.process, within: 20) else { return XCTFail("send still running: \(send.stderr())") }
        XCTAssertEqual(send.process.terminationStatus, 0, send.stderr())
        XCTAssertTrue(send.stdout().contains("taken back"), send.stdout() + send.stderr())
        XCTAssertFalse(try mailstore("log", "--stream", "draft/" + id).stdout.contains("SendStarted"), "nothing was tried")
    }

    /// A message queued again for want of a network while the clock stood a year ahead has its due time recorded a year
    /// ahead; with the clock right again, `outbox send` tries it (it waited a year).
    func testATimeRecordedAYearAheadIsDue() throws {
        let id = try queuedWhileAYearAhead()
        let out = try mailstore("outbox", "send", expect: 5)
        XCTAssertTrue(out.stdout.contains("\(id)  queued: the server could not be reached"), out.stdout + out.stderr)
    }

    /// A message queued again for want of a network while the clock stood a year ahead has its due time recorded a
    /// year ahead; with the clock right again it is due now (`outbox send` tries it), and `outbox` and `project --view
    /// outbox` say so, the JSON with `recordedTimeAhead` (they had shown it due a year later).
    func testTheOutboxShowsATimeRecordedAYearAheadAsDueNow() throws {
        let id = try queuedWhileAYearAhead()
        let list = try mailstore("outbox")
        let row = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.hasPrefix(id) }, list.stdout)
        XCTAssertTrue(row.contains("due now (recorded ") && row.contains("ahead of this clock)"), String(row))
        let view = try mailstore("project", "--view", "outbox")
        XCTAssertTrue(view.stdout.contains("due now (recorded "), view.stdout)
        let json = try mailstore("project", "--view", "outbox", "--json")
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], json.stdout)
        let email = try XCTUnwrap((reports.first?["emails"] as? [[String: Any]])?.first, json.stdout)
        XCTAssertEqual(email["recordedTimeAhead"] as? Bool, true, json.stdout)
        XCTAssertNotNil(email["dueAt"] as? String, "the recorded time kept: \(json.stdout)")
    }

    /// A watch whose server went away waits its backoff to reconnect; the clock stepped back an hour during that
    /// wait does not make it an hour (the watch stalled, its outbox retries too, for as long as the clock went back).
    func testAWatchReconnectsOnTimeThoughTheClockSteppedBack() throws {
        _ = try storeWithDraft()
        let watch = try start(["sync", "--watch", "--account", "work"])
        XCTAssertTrue(Poll.until(seconds: 30) { watch.stderr().contains("reconnecting in 1 s") }, watch.stderr())
        try shim.step(-3600)
        XCTAssertTrue(Poll.until(seconds: 15) { watch.stderr().contains("reconnecting in 2 s") }, "no reconnect: \(watch.stderr())")
    }

    /// A password command that hangs is killed at its time limit though the clock stepped back meanwhile (its limit
    /// ran on until the wall clock caught up).
    func testAPasswordCommandsTimeLimitHoldsThoughTheClockSteppedBack() throws {
        let pidFile = dir.file("command-pid")
        let id = try storeWithDraft(smtpPasswordCommand: "echo $$ > \(pidFile).new && mv \(pidFile).new \(pidFile) && exec sleep 300")
        defer {
            if let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                kill(pid, SIGKILL)
            }
        }
        let send = try start(["send", id, "--undo-delay", "0"])
        XCTAssertTrue(Poll.until(seconds: 30) { FileManager.default.fileExists(atPath: pidFile) }, send.stderr())
        try shim.step(-3600)
        guard ended(send.process, within: 30) else { return XCTFail("the password command not killed: \(send.stderr())") }
        XCTAssertTrue(send.stderr().contains("did not finish within 10 s"), send.stderr())
    }

    /// `ConnectionPool`'s lease and `DeliveryWorker`'s `waitIdle`/`finish` wait on a condition, a second at a time at
    /// most: each turn was timed on the wall clock (`NSCondition.wait(until: Date)`), so a clock stepped during one held
    /// it for the step (an hour, a lease's 30 s or a watch's end held that long). The shim moves what the process reads,
    /// not the kernel's wall clock the condition sleeps on: a step ahead under it skews the two by an hour, as a real
    /// clock stepped back an hour does to a turn under way. Run in a child (this test bundle's `SteppedClockWaits`,
    /// one test each), each wait must end in its 3 s.
    func testThePoolsAndTheDeliveryWorkersWaitsHoldThoughTheClockStepped() throws {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        for test in ["testAPoolLeaseWaitsItsOwnTime", "testADeliveryWorkersWaitsHoldTheirTime"] {
            let n = started.count
            let out = dir.file("child-\(n)")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: bundle)
            p.arguments = ["CLITests.SteppedClockWaits/" + test]
            var env = shim.environment(home: store)
            env["MAILSTORE_TEST_CLOCK_CHILD"] = "1"
            p.environment = env
            p.standardOutput = FileHandle(forWritingAtPath: out)
            p.standardError = FileHandle(forWritingAtPath: out)
            try p.run()
            started.append(p)
            let done = ended(p, within: 45)
            if !done { kill(p.processIdentifier, SIGKILL) }
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            XCTAssertTrue(done, "\(test) still waiting after 45 s: \(text)")
            XCTAssertTrue(done && p.terminationStatus == 0, "\(test): \(text)")
            XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), "\(test) ran: \(text)")
        }
    }

    /// Events recorded while the clock stood ahead: `verify` and `stats` say the recorded times are ahead of this
    /// clock (the log keeps times in order, so every later event is recorded at that time too).
    func testVerifyAndStatsSayRecordedTimesAreAheadOfTheClock() throws {
        _ = try storeWithDraft()
        try shim.step(366 * 86_400)
        let saved = try shifted(["draft", "new", "--account", "work", "--to", "bob@example.com", "--subject", "later", "--body", "b"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        try mailstore("draft", "new", "--account", "work", "--to", "bob@example.com", "--subject", "now", "--body", "b")
        let verify = try mailstore("verify")
        XCTAssertTrue(verify.stdout.contains("Note: recorded times are ahead of this machine's clock"), verify.stdout)
        let json = try mailstore("verify", "--json")
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertGreaterThanOrEqual(obj["recordedTimesAhead"] as? Int ?? 0, 2, json.stdout)
        let stats = try mailstore("stats")
        XCTAssertTrue(stats.stdout.contains("Note: the last event is recorded at"), stats.stdout)
    }
}
