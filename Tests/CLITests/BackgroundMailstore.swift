import Foundation
import TestSupport

/// `mailstore ARGS` running in the background with `MAILSTORE_HOME` = `home`, its stdout read line by line as it
/// comes: for commands that wait for someone (an OAuth sign-in waiting for the browser or the device code).
final class BackgroundMailstore {
    let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private(set) var text = ""

    init(_ args: [String], home: String) throws {
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = home
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Waits (at most 30 s, or until stdout ends) for a stdout line containing `marker` and returns it.
    func line(containing marker: String) throws -> String {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let l = text.split(separator: "\n").first(where: { $0.contains(marker) }) { return String(l) }
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        throw TestServerError("no line with \(marker) in: \(text)")
    }

    /// Reads the rest of its output and waits for it to exit.
    func finish() -> (status: Int32, stdout: String, stderr: String) {
        text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, e)
    }
}
