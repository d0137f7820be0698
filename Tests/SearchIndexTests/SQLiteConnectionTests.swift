import Foundation
@testable import SearchIndex
import TestSupport
import XCTest

final class SQLiteConnectionTests: XCTestCase {
    /// The temporary files SQLite makes for a connection (here a temporary table too big for its cache) are made in
    /// the folder of the connection's file, not in the system's temporary folder: with that folder gone, SQLite
    /// cannot make them; back, it can, and nothing is left in it.
    func testTemporaryFilesAreMadeInTheFilesFolder() throws {
        let dir = TemporaryDirectory("sqlite-temp")
        let folder = dir.file("index"), moved = dir.file("moved")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        func fill(_ db: SQLiteConnection) throws {
            try db.exec("""
                PRAGMA temp_store=FILE; PRAGMA temp.cache_size=8;
                CREATE TEMP TABLE rows(v TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                    INSERT INTO rows SELECT hex(randomblob(100)) FROM n;
                """)
        }
        let first = try SQLiteConnection(path: folder + "/x.sqlite", create: true)
        XCTAssertEqual(rename(folder, moved), 0)
        XCTAssertThrowsError(try fill(first))
        XCTAssertEqual(rename(moved, folder), 0)
        let second = try SQLiteConnection(path: folder + "/x.sqlite", create: false)
        try fill(second)
        let count = try second.prepare("SELECT count(*) FROM temp.rows")
        XCTAssertTrue(try count.step())
        XCTAssertEqual(count.int(0), 20_000)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["x.sqlite"])
    }

    func testTheFolderOfAPath() {
        XCTAssertEqual(SQLiteConnection.folder(of: "/a/b/index.sqlite"), "/a/b")
        XCTAssertEqual(SQLiteConnection.folder(of: "/index.sqlite"), "/")
        XCTAssertEqual(SQLiteConnection.folder(of: "index.sqlite"), ".")
        XCTAssertEqual(SQLiteConnection.folder(of: "a/index.sqlite"), "a")
    }

    /// A text is bound from its own bytes up to its first NUL (as a C string of it was), an empty text as an empty text
    /// (not NULL), and a statement run again with fewer values has the parameters it was not given NULL, not the
    /// values of the run before.
    func testTextsAreBoundAsCStringsOfThemWere() throws {
        let dir = TemporaryDirectory("sqlite-bind")
        let db = try SQLiteConnection(path: dir.file("x.sqlite"), create: true)
        try db.exec("CREATE TABLE t(n INTEGER, a, b)")
        let insert = try db.prepare("INSERT INTO t(n, a, b) VALUES(?, ?, ?)")
        let long = String(repeating: "wörd ", count: 20_000)
        try insert.run([.int(1), .text("before\u{0}after"), .text("")])
        try insert.run([.int(2), .text(long), .text("é")])
        try insert.run([.int(3), .text("\u{0}")])
        try insert.run([.int(4), .text("plain")])
        // (`hex` shows every byte stored, a NUL included.)
        let read = try db.prepare("SELECT a, typeof(a), b, typeof(b), hex(a) FROM t ORDER BY n")
        var rows: [[String]] = []
        while try read.step() { rows.append([read.text(0), read.text(1), read.text(2), read.text(3)]) }
        XCTAssertEqual(try { try read.bind([]); _ = try read.step(); return read.text(4) }(), "6265666F7265")
        XCTAssertTrue(rows.count == 4 && rows[1][0] == long, "a long text stored whole")
        if rows.count == 4 { rows[1][0] = "(long)" }
        XCTAssertEqual(rows, [["before", "text", "", "text"], ["(long)", "text", "é", "text"], ["", "text", "", "null"],
                              ["plain", "text", "", "null"]])
    }
}
