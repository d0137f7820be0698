import Foundation
import MailStore
import XCTest

/// A Maildir folder nested too deep to walk (`MaildirSource.maxDepth`, 64 levels below the root) is said to be
/// skipped, with its path and why, not dropped without a word (a tree 300 levels deep imported its first 63 folders'
/// mail and said nothing of the rest).
extension ImportTests {
    func testFoldersNestedTooDeepAreReportedAsSkipped() throws {
        var path = "deep"
        var paths: [String] = []
        for level in 0...70 {
            if level > 0 { path += "/d\(level)" }
            paths.append(path)
            try write(path + "/cur/\(level).1.host:2,S", message("m\(level)"))
        }
        // A second branch cut at the same depth: each folder not walked is its own line.
        try write(paths[63] + "/e64/cur/1.1.host:2,S", message("e64"))
        let s = try Importer(store: store).importMaildir(dir.file("deep"))
        XCTAssertEqual(s.imported, 64, "the root and the 63 levels below it")
        XCTAssertEqual(s.found, 64)
        XCTAssertEqual(s.skippedCount, 2, "\(s.skipped)")
        XCTAssertEqual(s.skipped.sorted(), [dir.file(paths[63]) + "/d64", dir.file(paths[63]) + "/e64"].map {
            "\($0): a folder nested more than 64 levels below the Maildir root; not imported, nor anything in it (move it "
                + "higher up the tree, or import it on its own with --maildir, which files its mail under INBOX)"
        })
        XCTAssertEqual(try received().count, 64)
        // What was cut is there to import on its own.
        let rest = try Importer(store: store).importMaildir(dir.file(paths[63]) + "/d64")
        XCTAssertEqual(rest.imported, 7)
        XCTAssertEqual(rest.skippedCount, 0)
    }
}
