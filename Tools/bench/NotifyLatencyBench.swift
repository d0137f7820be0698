import Foundation
import IMAPClient
import IMAPProtocol
import SecureTransport

/// The notify-latency suite: new mail on the server to the notify command, end to end. A throwaway Dovecot
/// on loopback (Tools/test-server/dovecot), `mailstore sync --watch --notify-command` (IDLE on the Inbox),
/// and a second client that APPENDs a new message to the Inbox; the time from the APPEND's start to the
/// moment the notify command runs (it writes a timestamp) is one sample. Aim: <= 1 s.
struct NotifyLatencyBench {
    let options: BenchOptions

    func run() throws -> String {
        let samples = options.messagesGiven ? options.messages : 20
        let mailstore = BenchOptions.sibling("mailstore")
        let script = FileManager.default.currentDirectoryPath + "/Tools/test-server/dovecot"
        for exe in [mailstore, script] where !FileManager.default.isExecutableFile(atPath: exe) {
            throw SyncBench.failure("\(exe) missing: run from the repository root after swift build -c release")
        }
        try? FileManager.default.removeItem(atPath: options.work)
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }
        let serverDir = "/tmp/mailstore-bench-notify-\(getpid())"
        try FileManager.default.createDirectory(atPath: serverDir, withIntermediateDirectories: true)
        chmod(serverDir, 0o755)
        guard try ChildRun.run(script, ["start", serverDir]).status == 0 else { throw SyncBench.failure("Dovecot did not start") }
        defer {
            _ = try? ChildRun.run(script, ["stop", serverDir])
            try? FileManager.default.removeItem(atPath: serverDir)
        }
        let env = try SyncBench.readEnv(serverDir + "/env")
        guard let host = env["IMAP_HOST"], let port = env["IMAPS_PORT"].flatMap(UInt16.init), let ca = env["CA_FILE"],
              let user = env["IMAP_USER"], let pwFile = env["IMAP_PASSWORD_FILE"] else {
            throw SyncBench.failure("incomplete \(serverDir)/env")
        }
        let password = try String(contentsOfFile: pwFile, encoding: .utf8)
        let client = try IMAPConnection.connect(ServerEndpoint(host: host, port: port, security: .tls, caFile: ca))
        defer { client.logout() }
        try client.authenticate(username: user, credential: .password(password), mechanism: .plain)
        func message(_ i: Int) -> [UInt8] {
            let date = DateFormatter()
            date.locale = Locale(identifier: "en_US_POSIX")
            date.dateFormat = "EEE, d MMM yyyy HH:mm:ss Z"
            return Array(("Message-ID: <latency-\(i)-\(getpid())@bench.example>\r\nFrom: Ann <ann@example.com>\r\nTo: \(user)\r\n"
                + "Subject: latency \(i)\r\nDate: \(date.string(from: Date()))\r\n\r\nhello \(i)\r\n").utf8)
        }
        // The account's first sync (it posts nothing, as a first sync must).
        _ = try client.append(to: MailboxName("INBOX"), message: message(-1))
        let store = options.work + "/store"
        _ = try ChildRun.run(mailstore, ["init", "--store", store])
        _ = try ChildRun.run(mailstore, ["account", "add", "bench", "--store", store, "--email", user, "--host", host,
                                         "--port", "\(port)", "--security", "tls", "--password-file", pwFile, "--ca-file", ca])
        guard try ChildRun.run(mailstore, ["sync", "--store", store, "--quiet"]).status == 0 else { throw SyncBench.failure("sync failed") }
        let stamps = options.work + "/stamps"
        guard FileManager.default.createFile(atPath: stamps, contents: nil) else { throw SyncBench.failure("cannot create \(stamps)") }
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: mailstore)
        watch.arguments = ["sync", "--watch", "--quiet", "--store", store, "--notify-command", "date +%s.%N >> \(stamps)"]
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 3)  // connected and IDLE
        print("\(samples) new messages, one at a time…")
        var latencies: [Double] = []
        for i in 0..<samples {
            let start = Date().timeIntervalSince1970
            _ = try client.append(to: MailboxName("INBOX"), message: message(i))
            let deadline = start + 10
            var seen: Double?
            while Date().timeIntervalSince1970 < deadline {
                let lines = ((try? String(contentsOfFile: stamps, encoding: .utf8)) ?? "").split(separator: "\n")
                if lines.count > i, let t = Double(lines[i]) {
                    seen = t
                    break
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
            guard let seen else { throw SyncBench.failure("message \(i) was not notified within 10 s") }
            latencies.append(seen - start)
            Thread.sleep(forTimeInterval: 0.3)
        }
        latencies.sort()
        func ms(_ q: Double) -> String { String(format: "%.0f ms", latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] * 1000) }
        return """
        ## Notify latency

        `swift build -c release && .build/release/bench notify-latency [--messages \(samples)]` — a throwaway Dovecot on loopback (TLS), \
        `mailstore sync --watch --notify-command 'date +%s.%N >> FILE'` (IDLE on the Inbox), and a second client APPENDing \
        \(samples) new messages to the Inbox one at a time; each sample is from the APPEND's start to the notify command's timestamp.
        \(Report.machine(workDir: options.work))

        | new mail on the server to the notify command | p50 | p90 | max | aim |
        |---|---:|---:|---:|---|
        | \(samples) messages | \(ms(0.5)) | \(ms(0.9)) | \(ms(1.0)) | <= 1 s |

        What a sample holds: the APPEND, Dovecot's IDLE push, one Inbox sync (fetch, parse, commit with the views folded), the
        notification decision and its record, and starting the command through /bin/sh.
        """
    }
}
