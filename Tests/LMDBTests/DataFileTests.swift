import Foundation
import Glibc
import LMDB
import TestSupport
import XCTest

/// A data file cut short is refused at open with `DataFileError` (never a SIGBUS on the first read).
final class DataFileTests: LMDBTestCase {
    private func writeSomePages() throws -> Int {
        let env = try openEnvironment(mapSize: 8 << 20)
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 300, valueBytes: 2 << 10)
        return env.usedBytes
    }

    func testATruncatedDataFileIsRefusedWithATypedError() throws {
        let used = try writeSomePages()
        let file = Environment.dataFile(dir.path)
        XCTAssertEqual(truncate(file, off_t(used / 2)), 0)
        for readOnly in [false, true] {
            XCTAssertThrowsError(try openEnvironment(mapSize: 8 << 20, readOnly: readOnly)) { error in
                guard case .truncated(let f, let size, let expected)? = error as? DataFileError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(f, file)
                XCTAssertEqual(size, used / 2)
                XCTAssertEqual(expected, used)
                XCTAssertTrue("\(error)".contains("restore this folder from a backup"), "\(error)")
            }
        }
        // Nothing was changed by the refused opens.
        XCTAssertEqual(Environment.fileSize(file), used / 2)
    }

    func testADataFileShorterThanItsHeaderIsRefused() throws {
        _ = try writeSomePages()
        let file = Environment.dataFile(dir.path)
        XCTAssertEqual(truncate(file, 100), 0)
        XCTAssertThrowsError(try openEnvironment(mapSize: 8 << 20)) { error in
            XCTAssertEqual(error as? DataFileError, .noHeader(file: file, size: 100))
        }
    }

    func testAWholeDataFileOpens() throws {
        let used = try writeSomePages()
        let env = try openEnvironment(mapSize: 8 << 20, readOnly: true)
        XCTAssertEqual(env.usedBytes, used)
    }
}
