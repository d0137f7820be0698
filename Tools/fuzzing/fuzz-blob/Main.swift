import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise;
/// `fuzz-blob --write-seeds DIR` writes the seed corpus.
@main
enum FuzzBlob {
    static func main() throws {
        try FuzzMain.run(check: BlobFuzz.check, writeSeeds: BlobFuzz.writeSeeds(to:))
    }
}
