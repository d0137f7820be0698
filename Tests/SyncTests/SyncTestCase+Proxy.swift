import Foundation
import TestSupport

extension SyncTestCase {
    /// Starts one of the test servers' Python proxies (`Tools/test-server/TOOL`) with `arguments` and `--port-file`, and
    /// returns the process and the port it wrote there (waited for 5 s at most). `what` names it in the error.
    func startPythonProxy(_ tool: String, _ arguments: [String], what: String) throws -> (process: Process, port: Int) {
        let portFile = dir.file("proxy.port")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/test-server/" + tool).path
        p.arguments = ["python3", script] + arguments + ["--port-file", portFile]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        for _ in 0..<500 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return (p, port)
            }
            usleep(10_000)
        }
        p.terminate()
        throw TestServerError("the \(what) did not start")
    }

    /// Stops a proxy ``startPythonProxy(_:_:what:)`` started, if it still runs, and waits for it.
    func stopPythonProxy(_ proxy: Process?) {
        guard let proxy, proxy.isRunning else { return }
        proxy.terminate()
        proxy.waitUntilExit()
    }
}
