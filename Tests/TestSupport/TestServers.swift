import Foundation

/// Real servers for integration tests, started once per test process.
public enum TestServers {
    /// The Dovecot to test against: the one in `$MAILSTORE_TEST_DOVECOT` (a folder where
    /// `Tools/test-server/dovecot start` wrote `env`, as `Tools/test` does), else one started now
    /// in a fresh folder under /tmp and stopped when the process exits.
    public static func dovecot() throws -> DovecotServer {
        try state.withLock { state in
            if let server = state.dovecot { return server }
            let script = repositoryRoot + "/Tools/test-server/dovecot"
            let dir: String
            if let given = ProcessInfo.processInfo.environment["MAILSTORE_TEST_DOVECOT"], !given.isEmpty {
                dir = given
            } else {
                dir = try makeServerFolder()
                let result = try ScriptRunner.run(script, ["start", dir])
                guard result.status == 0 else {
                    throw TestServerError("`\(script) start \(dir)` failed (status \(result.status)):\n\(result.output)")
                }
                startedDovecotFolder.withLock { $0 = dir }
                atexit(stopStartedDovecotAtExit)
            }
            let server = try DovecotServer(dir: dir, script: script)
            state.dovecot = server
            return server
        }
    }

    /// A folder only this user can read, for password files; made once per process.
    static func privateFolder() throws -> String {
        try state.withLock { state in
            if let folder = state.privateFolder { return folder }
            let folder = NSTemporaryDirectory() + "mailstore-test-secrets-\(getpid())-\(DovecotServer.randomHex(4))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            state.privateFolder = folder
            return folder
        }
    }

    /// What this process started or made.
    private struct State {
        var dovecot: DovecotServer?
        var privateFolder: String?
    }

    private static let state = Locked(State())
    /// The folder of the Dovecot this process started, to stop at exit.
    fileprivate static let startedDovecotFolder = Locked<String?>(nil)

    /// The repository root (this file is Tests/TestSupport/TestServers.swift).
    fileprivate static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// A fresh folder under /tmp that the dovecot, dovenull and vmail users can reach.
    private static func makeServerFolder() throws -> String {
        var template = Array("/tmp/mailstore-dovecot-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestServerError("cannot make a folder under /tmp: \(String(cString: strerror(errno)))")
        }
        let dir = String(cString: made)
        guard chmod(dir, 0o755) == 0 else { throw TestServerError("cannot chmod 755 \(dir)") }
        return dir
    }
}

/// Stops the Dovecot this process started (an `atexit` handler, so a plain function).
private func stopStartedDovecotAtExit() {
    guard let dir = TestServers.startedDovecotFolder.withLock({ $0 }) else { return }
    _ = try? ScriptRunner.run(TestServers.repositoryRoot + "/Tools/test-server/dovecot", ["stop", dir])
    try? FileManager.default.removeItem(atPath: dir)
}
