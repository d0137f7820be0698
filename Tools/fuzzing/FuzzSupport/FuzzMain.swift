import Foundation
#if FUZZING
import CLibFuzzer
#endif

/// The `main` of every fuzz target.
///
/// Built by `Tools/fuzz` (libFuzzer linked in, `-DFUZZING`) it hands the command line to libFuzzer's
/// driver; built plainly (`swift build`) it replays the files it is given (see ``FuzzReplay``).
package enum FuzzMain {
    /// Runs the target whose invariants `check` asserts, then exits; `TARGET --write-seeds DIR` calls `writeSeeds` with DIR
    /// instead, for a target that writes its seed corpus itself.
    package static func run(check: @escaping ([UInt8]) -> Void, writeSeeds: (String) throws -> Void) throws -> Never {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            try writeSeeds(arguments[2])
            exit(0)
        }
        run(check: check)
    }

    /// Runs the target whose invariants `check` asserts, then exits.
    package static func run(check: @escaping ([UInt8]) -> Void) -> Never {
        #if FUZZING
        FuzzMain.check = check
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzMain.check?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
        #else
        exit(FuzzReplay.run(arguments: Array(CommandLine.arguments.dropFirst()), check: check))
        #endif
    }

    #if FUZZING
    /// The target's check, for libFuzzer's C callback (set once, before fuzzing starts).
    nonisolated(unsafe) static var check: (([UInt8]) -> Void)?
    #endif
}
