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
}
