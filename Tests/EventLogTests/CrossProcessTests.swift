import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

final class CrossProcessTests: EventLogTestCase {
    var torture: String { BuiltProducts.executable("mailstore-torture") }

    /// A real child process appending batches is killed with SIGKILL mid-run, many times over; the log
    /// is always at a batch boundary, at or past the last batch the child reported, and verifies clean.
    func testSIGKILLDuringBatchAppendsLeavesTheLastCommittedBatch() throws {
        let batchSize = 25
        var lastReported = -1
        for round in 0..<6 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: torture)
            p.arguments = ["append", "--path", dir.path, "--batches", "1000000", "--batch-size", "\(batchSize)"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(150_000 + round * 70_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal)
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if let last = text.split(separator: "\n").last(where: { $0.hasPrefix("committed ") }) {
                lastReported = Int(last.dropFirst("committed ".count)) ?? lastReported
            }
            let log = try openLog()
            let head = try log.head().sequence
            XCTAssertEqual(head % UInt64(batchSize), 0, "round \(round): head \(head) is mid-batch")
            XCTAssertGreaterThanOrEqual(Int(head) / batchSize, lastReported + 1, "a reported commit was lost")
            let report = try log.verify()
            XCTAssertTrue(report.isClean, "round \(round): \(report.problems)")
        }
        XCTAssertGreaterThan(lastReported, 10, "the child made progress")
    }

    /// A reader in another process sees each batch wholly or not at all while this process appends.
    func testReaderInAnotherProcessSeesWholeBatches() throws {
        let batchSize = 40
        let log = try openLog()
        try log.append((0..<batchSize).map { event(categorized($0), stream: "batch/seed") })
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: torture)
        watcher.arguments = ["watch", "--path", dir.path, "--batch-size", "\(batchSize)", "--seconds", "2"]
        let out = Pipe()
        watcher.standardOutput = out
        try watcher.run()
        var b = 0
        while watcher.isRunning {
            try log.append((0..<batchSize).map { event(categorized($0), stream: StreamName(rawValue: "batch/\(b)")) })
            b += 1
        }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(watcher.terminationStatus, 0, text)
        XCTAssertTrue(text.hasPrefix("ok snapshots="), text)
        XCTAssertGreaterThan(b, 10)
    }
}
