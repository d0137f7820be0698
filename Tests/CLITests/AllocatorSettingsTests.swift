import CMalloc
import Foundation
import Glibc
@testable import MailStoreCLI
import TestSupport
import XCTest

final class AllocatorSettingsTests: XCTestCase {
    /// Set in the child process that checks the settings.
    static let inChild = "MAILSTORE_TEST_ALLOCATOR_CHILD"

    /// Skips these tests in a build with a sanitizer (`Tools/sanitize` sets `MAILSTORE_TEST_SANITIZER`): its allocator
    /// replaces glibc's, whose settings they check.
    override func setUpWithError() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["MAILSTORE_TEST_SANITIZER"] != nil,
                      "glibc's malloc is replaced by the sanitizer's")
    }

    /// With the settings, a block over their threshold is mapped on its own, and given back when freed, even after a
    /// bigger block was freed (which moves glibc's own threshold up to that block's size). Checked in a process of its
    /// own, as the CLI sets them: this one's heap may hold free room left by earlier tests, which a block is taken from
    /// whatever the thresholds.
    func testABigBlockIsMappedOnItsOwnAfterABiggerOneWasFreed() throws {
        guard ProcessInfo.processInfo.environment[Self.inChild] != nil else {
            var env = ProcessInfo.processInfo.environment
            env[Self.inChild] = "1"
            let r = try ChildProcess.run(CommandLine.arguments[0], ["CLITests.AllocatorSettingsTests/testABigBlockIsMappedOnItsOwnAfterABiggerOneWasFreed"],
                                         environment: env)
            let output = r.stdout + r.stderr
            XCTAssertEqual(r.status, 0, output)
            XCTAssertTrue(output.contains("Executed 1 test, with 0 failures"), output)
            return
        }
        XCTAssertTrue(AllocatorSettings.apply())
        let bigSize = 24 << 20, size = 2 << 20
        let big = try XCTUnwrap(malloc(bigSize))
        memset(big, 1, bigSize)
        free(big)
        let before = mallinfo2().hblkhd
        let block = try XCTUnwrap(malloc(size))
        memset(block, 1, size)
        XCTAssertGreaterThanOrEqual(mallinfo2().hblkhd, before + size, "mapped on its own")
        free(block)
        XCTAssertLessThan(mallinfo2().hblkhd, before + size, "given back")
    }

    /// A process whose `GLIBC_TUNABLES` sets malloc tunables keeps them; other tunables do not count.
    func testAProcessThatSetsMallocTunablesKeepsThem() {
        XCTAssertTrue(AllocatorSettings.applies(environment: [:]))
        XCTAssertTrue(AllocatorSettings.applies(environment: ["GLIBC_TUNABLES": "glibc.rtld.nns=2"]))
        XCTAssertFalse(AllocatorSettings.applies(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"]))
        XCTAssertFalse(AllocatorSettings.applies(environment: ["GLIBC_TUNABLES": "glibc.rtld.nns=2:glibc.malloc.mmap_threshold=65536"]))
    }
}
