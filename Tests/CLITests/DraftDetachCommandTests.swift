import Foundation
import XCTest

/// `draft edit --detach NAME` removes the one attachment of that name; a name several attachments share is refused
/// (exit 64, nothing saved) with their positions and sizes, and `--detach-at N` removes the one at a position.
final class DraftDetachCommandTests: CLITestCase {
    /// A new draft of the account `work` with a file of `size` bytes for each of `files` (a folder and a name: one name
    /// may come from several folders) attached in order; its id.
    private func draft(attaching files: [(folder: String, name: String, size: Int)]) throws -> String {
        try mailstore("init")
        try addAccount("work")
        var args = ["draft", "new", "--account", "work", "--to", "bob@example.com", "--body", "see attached"]
        for f in files {
            try FileManager.default.createDirectory(atPath: dir.file(f.folder), withIntermediateDirectories: true)
            let path = dir.file(f.folder + "/" + f.name)
            try Data(repeating: UInt8(ascii: "a"), count: f.size).write(to: URL(fileURLWithPath: path))
            args += ["--attach", path]
        }
        return try XCTUnwrap(try mailstore(args).stdout.split(separator: "\n").last.map(String.init))
    }

    /// The draft's attachments as `draft show --json` has them: name and size, in order.
    private func attachments(_ id: String) throws -> [String] {
        let json = try mailstore("draft", "show", id, "--json").stdout
        let draft = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try XCTUnwrap(draft["attachments"] as? [[String: Any]]).map { "\($0["filename"] ?? "") \($0["size"] ?? "")" }
    }

    /// Two `report.pdf`: `--detach report.pdf` had removed both. Now it is refused, each listed with its position and size,
    /// nothing saved; `--detach-at` removes the one chosen, and `--detach` the one left once its name is unique.
    func testANameTwoAttachmentsShareIsRefusedAndAPositionChoosesOne() throws {
        let id = try draft(attaching: [("q1", "report.pdf", 10), ("notes", "notes.txt", 5), ("q2", "report.pdf", 20)])
        let refused = try mailstore("draft", "edit", id, "--subject", "fewer", "--detach", "report.pdf", expect: 64)
        XCTAssertTrue(refused.stderr.contains("nothing was saved: 2 of the draft's attachments are named \"report.pdf\" (#1 10 bytes, #3 20 bytes)"),
                      refused.stderr)
        XCTAssertTrue(refused.stderr.contains("`--detach-at N` (1-based, as `mailstore draft show DRAFT` lists the attachments), e.g. `--detach-at 1`"),
                      refused.stderr)
        XCTAssertEqual(try attachments(id), ["report.pdf 10", "notes.txt 5", "report.pdf 20"], "nothing detached")
        XCTAssertFalse(try mailstore("draft", "show", id).stdout.contains("fewer"), "nothing saved")
        try mailstore("draft", "edit", id, "--detach-at", "3")
        XCTAssertEqual(try attachments(id), ["report.pdf 10", "notes.txt 5"])
        try mailstore("draft", "edit", id, "--detach", "report.pdf")
        XCTAssertEqual(try attachments(id), ["notes.txt 5"], "a name one attachment has is detached by it")
        for position in ["2", "0", "-1"] {
            let past = try mailstore("draft", "edit", id, "--detach-at=\(position)", expect: 64)
            XCTAssertTrue(past.stderr.contains("nothing was saved: the draft has no attachment #\(position) (it has one, #1, as"), past.stderr)
        }
        try mailstore("draft", "edit", id, "--detach-at", "1")
        let none = try mailstore("draft", "edit", id, "--detach-at", "1", expect: 64)
        XCTAssertTrue(none.stderr.contains("no attachment #1 (it has none"), none.stderr)
        XCTAssertEqual(try attachments(id), [])
    }

    /// A hostile name (an escape sequence, a bidi override) shared by 12 attachments: the refusal lists the first 10
    /// (`DraftsUseCase.maxDetachCandidatesListed`) and counts the rest, and neither it nor `draft show` prints the name's
    /// controls.
    func testTheRefusalListsAtMostTenPositionsAndNoControlOfTheName() throws {
        let name = "evil\u{1B}[2J\u{202E}fdp.exe"
        let id = try draft(attaching: (1...12).map { ("f\($0)", name, $0) })
        let refused = try mailstore("draft", "edit", id, "--detach", name, expect: 64)
        XCTAssertTrue(refused.stderr.contains("12 of the draft's attachments are named"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("#9 9 bytes, #10 10 bytes, and 2 more); say which"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("#11"), refused.stderr)
        let show = try mailstore("draft", "show", id).stdout
        XCTAssertEqual(show.components(separatedBy: "\nAttachment: evil").count - 1, 12, show)
        for output in [refused.stderr, show] {
            XCTAssertFalse(output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, output)
        }
        try mailstore("draft", "edit", id, "--detach-at", "12", "--detach-at", "1")
        XCTAssertEqual(try attachments(id), (2...11).map { "\(name) \($0)" })
    }
}
