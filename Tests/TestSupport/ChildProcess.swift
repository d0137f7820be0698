import Foundation

/// Runs a program and captures its output.
package struct ChildProcess {
    /// The result of a finished run.
    package struct Result {
        /// Exit status (or signal number + 128 when killed).
        package var status: Int32
        /// Standard output.
        package var stdout: String
        /// Standard error.
        package var stderr: String
    }

    /// Runs `executable` with `arguments` to completion.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so a large output cannot block the child.
        // The semaphore orders the reading thread's write of `errData` before this thread's read of it.
        nonisolated(unsafe) var errData = Data()
        let errRead = DispatchSemaphore(value: 0)
        let t = Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            errRead.signal()
        }
        t.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        errRead.wait()
        return Result(status: p.terminationReason == .uncaughtSignal ? p.terminationStatus + 128 : p.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}
