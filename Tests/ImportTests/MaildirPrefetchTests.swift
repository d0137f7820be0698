import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// Listing a Maildir's messages asks each file of at most the importer's message size into the page cache (a cold
/// import reads a chunk's files from the disk at once, not one at a time per parse worker), and no bigger file.
final class MaildirPrefetchTests: FolderTestCase {
    /// Whether every page of the file at `path` is in the page cache (`mincore`), and whether none is.
    private func residency(_ path: String) throws -> (all: Bool, none: Bool) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { throw POSIXError(.EINVAL) }
        let size = Int(st.st_size)
        guard let map = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { throw POSIXError(.ENOMEM) }
        defer { munmap(map, size) }
        let pages = (size + Int(getpagesize()) - 1) / Int(getpagesize())
        var vec = [UInt8](repeating: 0, count: pages)
        guard mincore(map, size, &vec) == 0 else { throw POSIXError(.EINVAL) }
        return (vec.allSatisfy { $0 & 1 == 1 }, vec.allSatisfy { $0 & 1 == 0 })
    }

    /// Drops the file's pages from the page cache (written to disk first: clean pages can be dropped).
    private func evict(_ path: String) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        fsync(fd)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    }

    func testListingAsksEachMessageUpToTheLimitIntoThePageCacheAndNoBiggerOne() throws {
        let cur = dir.file("md/cur")
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        let small = cur + "/1.a.host:2,S", big = cur + "/2.b.host:2,S"
        try Data(("Subject: small\n\n" + String(repeating: "s", count: 20_000)).utf8).write(to: URL(fileURLWithPath: small))
        try Data(("Subject: big\n\n" + String(repeating: "b", count: 200_000)).utf8).write(to: URL(fileURLWithPath: big))
        evict(small)
        evict(big)
        guard try residency(small).none, try residency(big).none else {
            throw XCTSkip("this file system keeps the files' pages in memory (tmpfs): nothing to prefetch")
        }

        var source = MaildirSource(root: dir.file("md"))
        source.prefetchLimit = 100_000
        let listing = try XCTUnwrap(try source.scan().first)
        var listed: [String] = []
        try source.messages(of: listing, chunk: 10) { m, _ in listed += m.map(\.location) }
        XCTAssertEqual(listed.count, 2)

        // The kernel reads the small file in the background: wait for it (at most 5 s).
        let deadline = Date().addingTimeInterval(5)
        while try !residency(small).all, Date() < deadline { usleep(10_000) }
        XCTAssertTrue(try residency(small).all, "the message under the limit is read into the page cache")
        XCTAssertTrue(try residency(big).none, "the message over the limit (the importer skips it) is not read")

        // Without a limit nothing is asked for.
        evict(small)
        guard try residency(small).none else { throw XCTSkip("the file's pages could not be dropped again") }
        source.prefetchLimit = 0
        try source.messages(of: listing, chunk: 10) { _, _ in }
        usleep(200_000)
        XCTAssertTrue(try residency(small).none, "no prefetch with a limit of 0")
    }
}
