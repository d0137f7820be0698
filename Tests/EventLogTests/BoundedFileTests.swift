import EventLog
import Foundation
import TestSupport
import XCTest

/// `BoundedFile`: what it reads, what it refuses, and its bound at the edge, for files and for streams.
final class BoundedFileTests: FolderTestCase {
    private func write(_ name: String, _ count: Int) throws -> String {
        let path = dir.file(name)
        try Data((0..<count).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testARegularFileIsReadUpToItsBoundAndRefusedPastIt() throws {
        let bound = 200_000
        XCTAssertEqual(try BoundedFile.read(try write("edge", bound), maxBytes: bound), (0..<bound).map { UInt8(truncatingIfNeeded: $0) })
        XCTAssertEqual(try BoundedFile.read(try write("empty", 0), maxBytes: 0), [])
        XCTAssertThrowsError(try BoundedFile.read(try write("over", bound + 1), maxBytes: bound)) {
            XCTAssertEqual($0 as? BoundedFile.Failure, .tooLarge(size: bound + 1))
        }
        XCTAssertThrowsError(try BoundedFile.read(dir.path, maxBytes: bound, streams: true)) {
            XCTAssertEqual($0 as? BoundedFile.Failure, .notAFile)
        }
        XCTAssertThrowsError(try BoundedFile.read("/dev/zero", maxBytes: bound)) { XCTAssertEqual($0 as? BoundedFile.Failure, .notAFile) }
        XCTAssertThrowsError(try BoundedFile.read(dir.file("missing"), maxBytes: bound)) {
            guard case .unreadable? = $0 as? BoundedFile.Failure else { return XCTFail("\($0)") }
        }
    }

    /// A FIFO is refused at once where only files are taken (never waited on); taken as a stream, it is read to
    /// its end within the bound (growing past the first 64 KiB read), and refused one byte past it.
    func testAStreamIsReadToItsEndWithinTheBound() throws {
        let fifo = dir.file("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try BoundedFile.read(fifo, maxBytes: 10)) { XCTAssertEqual($0 as? BoundedFile.Failure, .notAFile) }
        XCTAssertThrowsError(try BoundedFile.read("/dev/zero", maxBytes: 300_000, streams: true)) {
            XCTAssertEqual($0 as? BoundedFile.Failure, .tooLarge(size: nil))
        }
        for count in [0, 300_000, 300_001] {
            var fds: [Int32] = [-1, -1]
            XCTAssertEqual(pipe(&fds), 0)
            let out = fds[1]
            let writer = Thread {
                let bytes = [UInt8](repeating: 7, count: count)
                var done = 0
                while done < count { done += bytes.withUnsafeBytes { Glibc.write(out, $0.baseAddress! + done, count - done) } }
                close(out)
            }
            writer.start()
            do {
                let read = try BoundedFile.read(descriptor: fds[0], maxBytes: 300_000)
                XCTAssertEqual(read, [UInt8](repeating: 7, count: count))
                XCTAssertLessThanOrEqual(count, 300_000)
            } catch {
                XCTAssertEqual(error, .tooLarge(size: nil))
                XCTAssertEqual(count, 300_001)
                // Let the writer finish before the pipe is closed under it.
                var sink = [UInt8](repeating: 0, count: 1 << 16)
                while read(fds[0], &sink, sink.count) > 0 {}
            }
            close(fds[0])
        }
    }
}
