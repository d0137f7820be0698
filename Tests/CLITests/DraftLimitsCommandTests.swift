import Foundation
import MailStore
import XCTest

/// A draft's bounds from the command line: a text, a list of recipients or attachments past them is refused
/// with what to do, nothing saved and nothing read past the bound; within them the draft is saved.
final class DraftLimitsCommandTests: CLITestCase {
    private func prepareAccount() throws {
        try mailstore("init")
        try addAccount("work")
    }

    private func draftEvents() throws -> Int {
        try mailstore("log", "--type", "DraftSaved").stdout.split(separator: "\n").count
    }

    private func file(_ name: String, bytes: Int) throws -> String {
        let path = dir.file(name)
        try Data(repeating: UInt8(ascii: "a"), count: bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testPastItsBoundsADraftIsRefusedAndNothingSaved() throws {
        try prepareAccount()
        let over = try file("over.txt", bytes: DraftsUseCase.maxBodyBytes + 1)
        let body = try mailstore("draft", "new", "--account", "work", "--to", "a@example.com", "--body-file", over, expect: 64)
        XCTAssertTrue(body.stderr.contains("more than a draft's text holds: attach it with --attach"), body.stderr)
        let zero = try mailstore("draft", "new", "--account", "work", "--to", "a@example.com", "--body-file", "/dev/zero", expect: 64)
        XCTAssertTrue(zero.stderr.contains("over 1048576 bytes"), zero.stderr)
        let subject = try mailstore("draft", "new", "--account", "work", "--subject", String(repeating: "s", count: 4_097), expect: 7)
        XCTAssertTrue(subject.stderr.contains("the subject is 4097 bytes, over 4096"), subject.stderr)
        let many = (0..<1_001).map { "u\($0)@example.com" }.joined(separator: ",")
        let recipients = try mailstore("draft", "new", "--account", "work", "--to", many, "--body", "hi", expect: 7)
        XCTAssertTrue(recipients.stderr.contains("1001 recipients, over 1000"), recipients.stderr)
        let device = try mailstore("draft", "new", "--account", "work", "--attach", "/dev/zero", expect: 7)
        XCTAssertTrue(device.stderr.contains("not a regular file"), device.stderr)
        let half = try file("half.bin", bytes: DraftsUseCase.maxAttachmentBytes / 2 + 1)
        let big = try mailstore("draft", "new", "--account", "work", "--attach", half, "--attach", half, expect: 7)
        XCTAssertTrue(big.stderr.contains("takes the attachments over 67108864 bytes"), big.stderr)
        XCTAssertEqual(try draftEvents(), 0, "nothing refused was saved")
        // Within the bounds: saved. A second half-size attachment on a later edit passes the total: refused.
        let fits = try file("fits.txt", bytes: DraftsUseCase.maxBodyBytes)
        let saved = try mailstore("draft", "new", "--account", "work", "--to", "a@example.com", "--body-file", fits, "--attach", half)
        let id = String(saved.stdout.split(separator: "\n").last ?? "")
        XCTAssertEqual(id.count, 16, saved.stdout)
        let edit = try mailstore("draft", "edit", id, "--attach", half, expect: 7)
        XCTAssertTrue(edit.stderr.contains("takes the attachments over"), edit.stderr)
        XCTAssertEqual(try draftEvents(), 1)
    }

    /// A reply quotes its original cut to what a draft holds, at a line's end, with a note.
    func testALongQuoteIsCutToFitAtALineEnd() {
        let line = String(repeating: "é", count: 40) + "\n"
        let body = String(repeating: line, count: DraftsUseCase.maxBodyBytes / line.utf8.count + 10)
        let fitted = DraftsUseCase.fitted(body)
        XCTAssertLessThanOrEqual(fitted.utf8.count, DraftsUseCase.maxBodyBytes)
        XCTAssertTrue(fitted.hasSuffix("\n[the rest of the quoted message is left out: a draft's text holds at most 1 MiB]\n"))
        let kept = fitted.dropLast("\n[the rest of the quoted message is left out: a draft's text holds at most 1 MiB]\n".count)
        XCTAssertTrue(kept.hasSuffix("\n") && body.hasPrefix(kept), "cut at a line's end")
        XCTAssertEqual(DraftsUseCase.fitted("short\n"), "short\n")
        let oneLine = String(repeating: "é", count: DraftsUseCase.maxBodyBytes)
        let cut = DraftsUseCase.fitted(oneLine)
        XCTAssertLessThanOrEqual(cut.utf8.count, DraftsUseCase.maxBodyBytes)
        XCTAssertFalse(cut.contains("\u{FFFD}"), "never inside a character")
    }
}
