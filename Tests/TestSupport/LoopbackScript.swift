import Foundation

/// A fake server script of Tools/test-server (run by python3 from the package's folder) that prints
/// "PORT n" once it listens on loopback.
package enum LoopbackScript {
    /// Starts `python3 arguments...` and returns the process with the port it printed. Its standard input is a pipe
    /// this process holds open: a script that ends when its input does (hostile-smtp.py) ends with this process.
    package static func start(_ arguments: [String]) throws -> (process: Process, port: UInt16) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = Pipe()
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ScriptError("\(arguments.first ?? "the server") did not start") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = UInt16(text.dropFirst(5)) else { throw ScriptError("unexpected: \(text)") }
        return (process, port)
    }
}
