import EventModel
import Projections
import XCTest

/// The folder list's tree: each folder's subfolders right after it, whatever a server names its folders. A path of
/// more parts than the tree tells apart is listed at the top, and a hostile path (a LIST line long) costs a few passes
/// over it, not one per part.
final class FolderTreeTests: XCTestCase {
    private func entry(_ path: String, _ delimiter: Character = "/", role: FolderRole = .custom) -> FolderEntry {
        FolderEntry(account: "a", path: path, displayName: FolderNaming.displayName(forPath: path, delimiter: delimiter), role: role)
    }

    func testSubfoldersFollowTheirFolderUpToTheDepthTheTreeTellsApart() {
        let deep = (1...FolderEntry.maxTreeDepth).map { "d\($0)" }
        let paths = (1...deep.count).map { deep[0..<$0].joined(separator: ".") } + [(deep + ["over"]).joined(separator: ".")]
        let tree = FolderEntry.tree((paths.reversed() + ["Z", "a.b"]).map { entry($0, ".") })
        XCTAssertEqual(tree.map(\.entry.path), ["a.b"] + paths + ["Z"],
                       "a.b at the top (no folder a), each d path under the one before it, the 33-part one at the top after d1's tree")
        XCTAssertEqual(tree.map(\.depth), [0] + (0..<FolderEntry.maxTreeDepth).map { $0 } + [0, 0])
    }

    func testANameThatIsNotThePathsEndOrIsEmptyIsAFolderAtTheTop() {
        let odd = [FolderEntry(account: "a", path: "abc", displayName: "", role: .custom),
                   FolderEntry(account: "a", path: "x/y", displayName: "Why", role: .custom), entry("x"), entry("ab")]
        XCTAssertEqual(FolderEntry.tree(odd).map(\.entry.path), ["ab", "abc", "x", "x/y"])
        XCTAssertEqual(FolderEntry.tree(odd).map(\.depth), [0, 0, 0, 0])
    }

    func testAPathOfTwoHundredThousandPartsIsListedAtTheTop() {
        let long = Array(repeating: "x", count: 200_000).joined(separator: "/")
        let entries = [entry(long), entry("x"), entry(long + "/y"), entry("x/x")]
        let tree = FolderEntry.tree(entries)
        XCTAssertEqual(Set(tree.map(\.entry.path)), Set(entries.map(\.path)))
        XCTAssertEqual(tree.map(\.depth), [0, 1, 0, 0], "x, x/x under it; the deep ones at the top, their 199,999 ancestors not joined")
    }
}
