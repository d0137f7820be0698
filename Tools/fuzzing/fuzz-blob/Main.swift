import Foundation
import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise;
/// `fuzz-blob --write-seeds DIR` writes the seed corpus.
@main
enum FuzzBlob {
    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            try BlobFuzz.writeSeeds(to: arguments[2])
            return
        }
        FuzzMain.run(check: BlobFuzz.check)
    }
}
