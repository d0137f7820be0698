import Foundation
import TestSupport

/// `openssl s_server` on a free loopback port with a throwaway self-signed certificate, speaking only an old TLS
/// version (`-tls1`, `-tls1_1`; `@SECLEVEL=0`, which OpenSSL 3 needs to allow them).
final class OldTLSServer {
    let port: UInt16
    private let process = Process()
    private let dir: String

    init(version: String) throws {
        dir = NSTemporaryDirectory() + "old-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let req = try ChildProcess.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                             "-nodes", "-keyout", dir + "/k.pem", "-out", dir + "/c.pem",
                                                             "-subj", "/CN=localhost", "-days", "1"])
        guard req.status == 0 else { throw NSError(domain: "OldTLSServer", code: 1, userInfo: [NSLocalizedDescriptionKey: req.stderr]) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", dir + "/c.pem", "-key", dir + "/k.pem", version,
                             "-cipher", "DEFAULT:@SECLEVEL=0", "-naccept", "1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // "ACCEPT 127.0.0.1:PORT" once it listens (within 5 s).
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        func accepting() -> Bool { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains { $0.hasPrefix("ACCEPT ") } }
        while !accepting(), Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
              let port = line.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespaces)) }) else {
            process.terminate()
            throw NSError(domain: "OldTLSServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "s_server said: \(text)"])
        }
        self.port = port
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }
}
