import Foundation
import MailStore
import XCTest

/// An mbox another program is writing (a delivery agent appending, a mail client rewriting) is read under its locks, as
/// mutt, Dovecot and Python's `mailbox.lock()` read a spool: its dot-lock (`FILE.lock`) is waited for, a bounded time,
/// and a shared `fcntl` lock is held for the whole read. Before, a half-written message was imported for good and the
/// whole one added as a second copy by the next import.
extension ImportTests {
    private var spoolMessage: String {
        "From a@example.com Mon Jan 15 09:30:00 2024\nFrom: a@example.com\nMessage-ID: <first@x>\nSubject: first\n\nbody\n\n"
    }

    func testAnMboxWhoseDotLockStaysIsRefusedAfterTheWaitSayingItIsLocked() throws {
        try write("spool.mbox", spoolMessage)
        try write("spool.mbox.lock", "")
        var options = Importer.Options()
        options.mboxLockWait = .milliseconds(300)
        let start = ContinuousClock.now
        XCTAssertThrowsError(try Importer(store: store, options: options).importMbox(dir.file("spool.mbox"))) { error in
            guard case ImportError.mboxLocked(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, dir.file("spool.mbox"))
            XCTAssertTrue("\(error)".contains("locked by another program"), "\(error)")
            XCTAssertTrue("\(error)".contains("try again"), "\(error)")
        }
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(300), "waited for the lock first")
        XCTAssertEqual(try received().count, 0, "nothing read while locked")
    }

    func testADotLockRemovedWithinTheWaitLetsTheImportGoOn() throws {
        try write("spool.mbox", spoolMessage)
        try write("spool.mbox.lock", "")
        let lock = dir.file("spool.mbox.lock")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { unlink(lock) }
        let start = ContinuousClock.now
        let s = try Importer(store: store).importMbox(dir.file("spool.mbox"))
        XCTAssertEqual(s.imported, 1)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(250), "read only once the lock was gone")
    }

    /// A writer holding an exclusive `fcntl` lock while it appends a message in two halves: the import waits for it and
    /// takes the whole message, never the half.
    func testAnMboxAppendedUnderAnFcntlLockIsReadOnlyWhenTheWriterIsDone() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 is not installed") }
        try write("spool.mbox", spoolMessage)
        let script = """
            import fcntl, sys, time
            f = open(sys.argv[1], 'ab'); fcntl.lockf(f, fcntl.LOCK_EX)
            f.write(b'From b@example.com Mon Jan 15 09:31:00 2024\\nFrom: b@example.com\\nMessage-ID: <second@x>\\nSubject: second\\n\\nfirst half\\n'); f.flush()
            print('locked', flush=True); time.sleep(1.0)
            f.write(b'second half\\n\\n'); f.close()
            """
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        writer.arguments = ["-c", script, dir.file("spool.mbox")]
        let out = Pipe()
        writer.standardOutput = out
        try writer.run()
        defer { writer.waitUntilExit() }
        let line = out.fileHandleForReading.availableData
        XCTAssertTrue(String(decoding: line, as: UTF8.self).hasPrefix("locked"), "the writer holds its lock")
        let s = try Importer(store: store).importMbox(dir.file("spool.mbox"))
        XCTAssertEqual(s.imported, 2)
        let second = try XCTUnwrap(try received().first { $0.messageID == "second@x" })
        XCTAssertEqual(try store.blob(second.blob).map { String(decoding: $0, as: UTF8.self) }?.hasSuffix("first half\nsecond half\n"), true)
    }
}
