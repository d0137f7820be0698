import Foundation

/// What every fuzz target shares: failing an invariant loudly, and deterministic chunk splits.
///
/// A failed invariant aborts the process with a message on standard error, which libFuzzer reports
/// as a crash and saves the input for (the reproducer mode of the target replays it).
package enum FuzzCheck {
    /// Aborts with `message` unless `condition` holds.
    package static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                               file: StaticString = #fileID, line: UInt = #line) {
        if !condition() {
            fail(message(), file: file, line: line)
        }
    }

    /// Aborts with `message`: an invariant does not hold for the current input.
    package static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        FileHandle.standardError.write(Data("invariant failed at \(file):\(line): \(message)\n".utf8))
        abort()
    }

    /// Splits `count` bytes into chunks whose sizes (1...maxChunk) come from a generator seeded with
    /// `seed`: the same input always gets the same split, so every crash reproduces.
    package static func chunkRanges(count: Int, seed: UInt64, maxChunk: Int = 17) -> [Range<Int>] {
        var state = seed | 1
        var ranges: [Range<Int>] = []
        var i = 0
        while i < count {
            // xorshift64
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let size = Int(state % UInt64(maxChunk)) + 1
            let end = min(count, i + size)
            ranges.append(i..<end)
            i = end
        }
        return ranges
    }

    /// A seed derived from the input bytes (FNV-1a).
    package static func seed(of bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
