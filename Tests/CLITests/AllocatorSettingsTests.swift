import CMalloc
import Glibc
@testable import MailStoreCLI
import XCTest

final class AllocatorSettingsTests: XCTestCase {
    /// With the settings, a block over their threshold is mapped on its own, and given back when freed, even after a
    /// bigger block was freed (which moves glibc's own threshold up to that block's size).
    func testABigBlockIsMappedOnItsOwnAfterABiggerOneWasFreed() throws {
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
