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
        let device = try mailstore("draft", "new", "--account", "work", "--attach", "/dev/zero", expect: 64)
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

    /// A `--body-file` that is not UTF-8 had its bytes turned into U+FFFD without a word; it is refused as argument text
    /// is (exit 64, saying what to do), a UTF-16 one (with its byte order mark) is read as such, a UTF-8 byte order mark
    /// is dropped. A file that cannot be read says why, and a missing `--attach` file is a usage error as the body's is.
    func testABodyFileIsUTF8OrRefusedAndAnUnreadableFileSaysWhy() throws {
        try prepareAccount()
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = dir.file(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        func body(_ out: String) throws -> String? {
            let id = String(out.split(separator: "\n").last ?? "")
            let json = try mailstore("draft", "show", id, "--json").stdout
            return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["body"] as? String
        }
        let latin = try write("latin1.txt", Array("caf".utf8) + [0xE9] + Array(" na".utf8) + [0xEF] + Array("ve\n".utf8))
        let refused = try mailstore("draft", "new", "--to", "a@example.com", "--body-file", latin, expect: 64)
        XCTAssertTrue(refused.stderr.contains("\(latin) is not UTF-8 text (byte 4 is not)"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("iconv -f LATIN1 -t UTF-8"), refused.stderr)
        XCTAssertEqual(try draftEvents(), 0)
        let text = "Grüße, 日本 🇩🇪\n"
        let utf16 = try write("utf16.txt", [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        XCTAssertEqual(try body(try mailstore("draft", "new", "--to", "a@example.com", "--body-file", utf16).stdout), text)
        let utf16BE = try write("utf16be.txt", [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        XCTAssertEqual(try body(try mailstore("draft", "new", "--to", "a@example.com", "--body-file", utf16BE).stdout), text)
        let bom = try write("bom.txt", [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        XCTAssertEqual(try body(try mailstore("draft", "new", "--to", "a@example.com", "--body-file", bom).stdout), text)
        let broken16 = try write("broken16.txt", [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00])
        let lone = try mailstore("draft", "new", "--to", "a@example.com", "--body-file", broken16, expect: 64)
        XCTAssertTrue(lone.stderr.contains("is not UTF-16 text"), lone.stderr)

        let missing = try mailstore("draft", "new", "--to", "a@example.com", "--body-file", dir.file("nothing.txt"), expect: 64)
        XCTAssertTrue(missing.stderr.contains("cannot read \(dir.file("nothing.txt")): No such file or directory"), missing.stderr)
        let folder = try mailstore("draft", "new", "--to", "a@example.com", "--body-file", dir.path, expect: 64)
        XCTAssertTrue(folder.stderr.contains("cannot read \(dir.path): not a regular file"), folder.stderr)
        let attach = try mailstore("draft", "new", "--to", "a@example.com", "--attach", dir.file("nothing.pdf"), expect: 64)
        XCTAssertTrue(attach.stderr.contains("cannot attach \(dir.file("nothing.pdf")): No such file or directory"), attach.stderr)
        XCTAssertEqual(try draftEvents(), 3)
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
