import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise;
/// `fuzz-record --write-seeds DIR` writes the seed corpus.
@main
enum FuzzRecord {
    static func main() throws {
        try FuzzMain.run(check: RecordFuzz.check, writeSeeds: RecordFuzz.writeSeeds(to:))
    }
}
