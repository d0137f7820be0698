import CLMDB
import LMDB
import XCTest

/// Which LMDB codes `verify` and the views' self-mending take for a damaged file, and which they must not: a code no
/// file's bytes give would send a person to restore a good store from a backup.
final class LMDBErrorTests: XCTestCase {
    /// What damaged pages give a read or an ordered write built from them is damage.
    func testCodesOfDamagedPagesAreDamage() {
        for code in [MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_KEYEXIST, MDB_BAD_VALSIZE, MDB_PAGE_FULL, MDB_INCOMPATIBLE, MDB_INVALID] {
            XCTAssertTrue(LMDBError(code: code, operation: "mdb_get").mayBeDamage, "code \(code)")
        }
    }

    /// An environment stopped by an earlier failed write (`MDB_PANIC`), a stale table handle (`MDB_BAD_DBI`) and a lock
    /// file of another LMDB version (`MDB_VERSION_MISMATCH`) are not the file's damage; each says what to do instead.
    func testCodesNoFileGivesAreNotDamage() {
        for code in [MDB_PANIC, MDB_BAD_DBI, MDB_VERSION_MISMATCH, MDB_NOTFOUND, MDB_MAP_FULL, MDB_READERS_FULL, ENOSPC] {
            let error = LMDBError(code: code, operation: "mdb_txn_begin")
            XCTAssertFalse(error.mayBeDamage, "code \(code)")
            XCTAssertFalse(error.description.contains("backup"), error.description)
        }
        XCTAssertTrue(LMDBError(code: MDB_PANIC, operation: "mdb_txn_begin").description.contains("run the command again"))
        XCTAssertTrue(LMDBError(code: MDB_VERSION_MISMATCH, operation: "mdb_env_open").description.contains("another LMDB version"))
    }
}
