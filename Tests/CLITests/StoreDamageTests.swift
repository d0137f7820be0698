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

    /// The store's small files are hostile too: a FIFO or a huge file put in place of `FORMAT` is refused at once
    /// (never waited on, never read whole); a FIFO in place of the views' `CURRENT` is taken as no views, which
    /// are rebuilt, and CURRENT written again.
    func testAFIFOOrAHugeFileInPlaceOfTheStoresSmallFilesIsRefusedNotWaitedOn() throws {
        _ = try storeWithSomeEvents()
        try mailstore("project", "--view", "folders", "--unified")
        let format = store + "/FORMAT"
        let kept = try Data(contentsOf: URL(fileURLWithPath: format))
        try FileManager.default.removeItem(atPath: format)
        XCTAssertEqual(mkfifo(format, 0o600), 0)
        let fifo = try mailstore("stats", expect: 2)
        XCTAssertTrue(fifo.stderr.contains("a regular file of at most 4 KiB"), fifo.stderr)
        try FileManager.default.removeItem(atPath: format)
        try Data(repeating: 0x20, count: 1 << 20).write(to: URL(fileURLWithPath: format))
        try mailstore("stats", expect: 2)
        try FileManager.default.removeItem(atPath: format)
        try kept.write(to: URL(fileURLWithPath: format))
        let current = store + "/views/CURRENT"
        try FileManager.default.removeItem(atPath: current)
        XCTAssertEqual(mkfifo(current, 0o600), 0)
        try mailstore("project", "--view", "folders", "--unified")
        var st = stat()
        XCTAssertEqual(stat(current, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "CURRENT written again as a file")
        try mailstore("verify", "--views")
    }
}
