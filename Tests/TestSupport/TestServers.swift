import Foundation
import XCTest

/// Real servers for integration tests, started once per test process.
package enum TestServers {
    /// The Dovecot to test against: the one in `$MAILSTORE_TEST_DOVECOT` (a folder where
    /// `Tools/test-server/dovecot start` wrote `env`, as `Tools/test` does), else one started now
    /// in a fresh folder under /tmp and stopped when the process exits.
    package static func dovecot() throws -> IMAPServer { try imap(.dovecot) }

    /// The IMAP server `personality` to test against: the one in its environment variable
    /// (`MAILSTORE_TEST_DOVECOT`, `MAILSTORE_TEST_COURIER`, `MAILSTORE_TEST_CYRUS`: a folder where
    /// `Tools/test-server/NAME start` wrote `env`, as `Tools/test` does), else one started now in a fresh
    /// folder under /tmp and stopped when the process exits. When that fails the test is skipped with the
    /// reason, except in CI (`CI=true`), where a server that cannot run is a failure.
    package static func imap(_ personality: IMAPPersonality) throws -> IMAPServer {
        try state.withLock { state in
            if let server = state.imap[personality] { return server }
            let (dir, script) = try required(personality.rawValue) {
                try serverFolder(personality.rawValue, environment: personality.environmentVariable)
            }
            let server = try IMAPServer(dir: dir, script: script, personality: personality)
            state.imap[personality] = server
            return server
        }
    }

    /// The SMTP server (aiosmtpd) to test against: the one in `$MAILSTORE_TEST_SMTP` (a folder where
    /// `Tools/test-server/smtp start` wrote `smtp-env`, as `Tools/test` does), else one started now
    /// in a fresh folder under /tmp and stopped when the process exits.
    package static func smtp() throws -> SMTPServer { try smtp(.aiosmtpd) }

    /// The SMTP server `personality` to test against: the one in its environment variable
    /// (`MAILSTORE_TEST_SMTP`, `MAILSTORE_TEST_EXIM`), else one started now (skipped or failed as ``imap(_:)``).
    package static func smtp(_ personality: SMTPPersonality) throws -> SMTPServer {
        try state.withLock { state in
            if let server = state.smtp[personality] { return server }
            let (dir, _) = try required(personality.script) {
                try serverFolder(personality.script, environment: personality.environmentVariable)
            }
            let server = try SMTPServer(dir: dir, personality: personality)
            state.smtp[personality] = server
            return server
        }
    }

    /// The local OAuth 2.0 server with its Dovecot and SMTP server: the one in `$MAILSTORE_TEST_OAUTH` (a folder
    /// where `Tools/test-server/oauth-server start` wrote `oauth-env`), else one started now (skipped or failed
    /// as ``imap(_:)``).
    package static func oauth() throws -> OAuthServer {
        try state.withLock { state in
            if let server = state.oauth { return server }
            let (dir, script) = try required("oauth-server") {
                try serverFolder("oauth-server", environment: "MAILSTORE_TEST_OAUTH")
            }
            let server = try OAuthServer(dir: dir, script: script)
            state.oauth = server
            return server
        }
    }

    /// The account discovery servers (dnsmasq and an autoconfig HTTP server): the ones in
    /// `$MAILSTORE_TEST_DISCOVERY` (a folder where `Tools/test-server/discovery start` wrote `env`), else started
    /// now (skipped or failed as ``imap(_:)``).
    package static func discovery() throws -> DiscoveryServer {
        try state.withLock { state in
            if let server = state.discovery { return server }
            let (dir, script) = try required("discovery") {
                try serverFolder("discovery", environment: "MAILSTORE_TEST_DISCOVERY")
            }
            let server = try DiscoveryServer(dir: dir, script: script)
            state.discovery = server
            return server
        }
    }

    /// `start()`, or, when it fails, an `XCTSkip` saying why, except in CI (`CI=true`) where the failure stands.
    private static func required<T>(_ name: String, _ start: () throws -> T) throws -> T {
        do {
            return try start()
        } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }
            throw XCTSkip("the test server \(name) cannot run here (CI=true makes this a failure): \(error)")
        }
    }

    /// The folder of the test server `name` (a script in Tools/test-server): the one in the
    /// environment variable `environment` when set, else a fresh one where the server was just
    /// started (and is stopped at exit); and the server's control script.
    private static func serverFolder(_ name: String, environment: String) throws -> (dir: String, script: String) {
        let script = repositoryRoot + "/Tools/test-server/" + name
        if let given = ProcessInfo.processInfo.environment[environment], !given.isEmpty { return (given, script) }
        let dir = try makeServerFolder(name)
        let result = try ScriptRunner.run(script, ["start", dir])
        guard result.status == 0 else {
            throw TestServerError("`\(script) start \(dir)` failed (status \(result.status)):\n\(result.output)")
        }
        let first = startedServers.withLock { started in
            started.append((script, dir))
            return started.count == 1
        }
        if first { atexit(stopStartedServersAtExit) }
        return (dir, script)
    }

    /// A folder only this user can read, for password files; made once per process.
    static func privateFolder() throws -> String {
        try state.withLock { state in
            if let folder = state.privateFolder { return folder }
            let folder = NSTemporaryDirectory() + "mailstore-test-secrets-\(getpid())-\(IMAPServer.randomHex(4))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            state.privateFolder = folder
            return folder
        }
    }

    /// What this process started or made.
    private struct State {
        var imap: [IMAPPersonality: IMAPServer] = [:]
        var smtp: [SMTPPersonality: SMTPServer] = [:]
        var privateFolder: String?
        var oauth: OAuthServer?
        var discovery: DiscoveryServer?
    }

    private static let state = Locked(State())
    /// The control script and folder of each server this process started, to stop at exit.
    fileprivate static let startedServers = Locked<[(script: String, dir: String)]>([])

    /// The repository root (this file is Tests/TestSupport/TestServers.swift).
    private static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// A fresh folder under /tmp that the server's users (dovecot, dovenull, vmail, cyrus, Debian-exim) can reach.
    private static func makeServerFolder(_ name: String) throws -> String {
        var template = Array("/tmp/mailstore-\(name)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestServerError("cannot make a folder under /tmp: \(String(cString: strerror(errno)))")
        }
        let dir = String(cString: made)
        guard chmod(dir, 0o755) == 0 else { throw TestServerError("cannot chmod 755 \(dir)") }
        return dir
    }
}

/// Stops the servers this process started (an `atexit` handler, so a plain function).
private func stopStartedServersAtExit() {
    for (script, dir) in TestServers.startedServers.withLock({ $0 }) {
        _ = try? ScriptRunner.run(script, ["stop", dir])
        try? FileManager.default.removeItem(atPath: dir)
    }
}
