import Foundation

/// The target's own `main` when it is built without libFuzzer: runs the check on each file named on
/// the command line (a saved crash, or a corpus directory), so a failure reproduces in a plain build.
package enum FuzzReplay {
    /// Runs `check` on every file in `arguments` (directories: every file in them); returns the exit status.
    package static func run(arguments: [String], check: ([UInt8]) -> Void) -> Int32 {
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("usage: FUZZ-TARGET FILE|DIRECTORY... (replays inputs; build with Tools/fuzz to fuzz)\n".utf8))
            return 2
        }
        var count = 0
        for path in arguments {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
                    return 1
                }
                check([UInt8](data))
                count += 1
            }
        }
        print("replayed \(count) inputs: every invariant holds")
        return 0
    }

    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
