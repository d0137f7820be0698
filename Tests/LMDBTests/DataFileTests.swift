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

    /// The same for a read-only environment that maps single pages, which is opened for writing underneath:
    /// a file cut short, or shorter than its header, is refused and left byte for byte as it was.
    func testACutDataFileOpenedReadOnlyWithSinglePagesIsRefusedAndLeftAsItWas() throws {
        let used = try writeSomePages()
        let file = Environment.dataFile(dir.path)
        var o = Environment.Options()
        o.mapSize = 8 << 20
        o.readOnly = true
        o.noFaultAround = true
        for size in [used / 2, 100] {
            XCTAssertEqual(truncate(file, off_t(size)), 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            XCTAssertThrowsError(try Environment(path: dir.path, options: o)) { error in
                XCTAssertTrue(error is DataFileError, "\(size) bytes: \(error)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "\(size) bytes: nothing written")
        }
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
