import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

/// A damaged store is reported, never crashed on: a log file cut short fails every command with a clear
/// error (verify reports it as a finding), and the store is left as it was.
final class StoreDamageTests: CLITestCase {
    private func storeWithSomeEvents() throws -> String {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        for b in 0..<20 {
            try log.append((0..<50).map { i in
                NewEvent(event: .folderRemoved(FolderRemoved(folder: "folder-\(b)-\(i)-" + String(repeating: "x", count: 200))),
                         account: "a", stream: StreamName(rawValue: "s\(b)"), actor: .system)
            })
        }
        return store + "/log/data.mdb"
    }

    func testATruncatedLogIsReportedNotCrashedOn() throws {
        let file = try storeWithSomeEvents()
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertEqual(truncate(file, off_t(size / 2)), 0)
        let verify = try mailstore("verify", expect: 1)
        XCTAssertTrue(verify.stdout.contains("BAD ") && verify.stdout.contains("is truncated"), verify.stdout)
        XCTAssertTrue(verify.stderr.contains("restore the store's log folder from a backup"), verify.stderr)
        let json = try mailstore("verify", "--json", expect: 1)
        XCTAssertTrue(json.stdout.contains("\"clean\":false"), json.stdout)
        for command in [["log"], ["stats"], ["import", "--mbox", "/dev/null"]] {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), command,
                                         environment: ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": store]) { _, b in b })
            XCTAssertEqual(r.status, 3, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("is truncated") && r.stderr.contains("restore this folder from a backup"), r.stderr)
        }
        // Nothing was written to the damaged file.
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, size / 2)
    }

    func testAnEmptyLogFileIsNotTakenForANewLog() throws {
        let file = try storeWithSomeEvents()
        XCTAssertEqual(truncate(file, 0), 0)
        let verify = try mailstore("verify", expect: 1)
        XCTAssertTrue(verify.stdout.contains("too short for a database header"), verify.stdout)
        try mailstore("log", expect: 3)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, 0)
    }
}
