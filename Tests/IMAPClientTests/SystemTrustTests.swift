import Foundation
import IMAPClient
@testable import SecureTransport
import TestSupport
import XCTest

/// The system trust store read from its hashed directory (lazily) where there is one: a handshake trusts a CA found
/// there by its subject's hash, and only such a CA.
final class SystemTrustTests: IMAPTestCase {
    /// A folder holding `pems`, each linked under its subject's hash as `openssl rehash` does.
    func hashedFolder(_ name: String, _ pems: [String]) throws -> String {
        let folder = NSTemporaryDirectory() + "trust-\(name)-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        for (i, pem) in pems.enumerated() {
            try FileManager.default.copyItem(atPath: pem, toPath: folder + "/ca\(i).pem")
        }
        let r = try ChildProcess.run("/usr/bin/openssl", ["rehash", folder])
        XCTAssertEqual(r.status, 0, r.stderr)
        return folder
    }

    func testATestCAInTheHashedDirectoryIsTrustedAndNoOtherIs() throws {
        let trusted = try hashedFolder("test-ca", [server.caFile])
        XCTAssertEqual(SystemTrust.locate(environment: { _ in nil }, directory: trusted), .directory(trusted))
        var e = endpoint(.tls, trustTestCA: false)
        e.systemTrust = .directory(trusted)
        let imap = try connect(e)
        XCTAssertTrue(imap.isEncrypted)
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        // Another CA's directory (a system CA's certificate, or none at all) does not vouch for the server.
        let system = try FileManager.default.contentsOfDirectory(atPath: "/etc/ssl/certs")
            .filter(SystemTrust.isHashedName).sorted()
        let other = try hashedFolder("other", system.prefix(1).map {
            URL(fileURLWithPath: "/etc/ssl/certs/" + $0).resolvingSymlinksInPath().path
        })
        for security in [ConnectionSecurity.tls, .starttls] {
            var e = endpoint(security, trustTestCA: false)
            e.systemTrust = .directory(other)
            XCTAssertThrowsError(try connect(e), "\(security)") { error in
                guard case .transport(.certificateRejected)? = error as? IMAPClientError else {
                    return XCTFail("\(security): expected certificateRejected, got \(error)")
                }
            }
        }
    }

    /// Where the system trust is read from: the system's directory when it has hashed links and the environment
    /// names no other bundle or directory (naming the system's own is the default); OpenSSL's default paths otherwise.
    func testTheHashedDirectoryIsUsedOnlyWhereItHasLinks() throws {
        let hashed = try hashedFolder("hashed", [server.caFile])
        let plain = try hashedFolder("plain", [])
        XCTAssertTrue(FileManager.default.createFile(atPath: plain + "/ca.pem", contents: Data()))
        let bundle = SystemTrust.systemBundle
        func locate(_ env: [String: String], _ dir: String) -> SystemTrust {
            SystemTrust.locate(environment: { env[$0] }, directory: dir)
        }
        XCTAssertEqual(locate([:], hashed), .directory(hashed))
        XCTAssertEqual(locate([:], plain), .defaultPaths, "no hashed links")
        XCTAssertEqual(locate([:], "/nonexistent-\(getpid())"), .defaultPaths)
        XCTAssertEqual(locate(["SSL_CERT_DIR": hashed, "SSL_CERT_FILE": bundle], hashed), .directory(hashed),
                       "the defaults named")
        XCTAssertEqual(locate(["SSL_CERT_DIR": "", "SSL_CERT_FILE": ""], hashed), .directory(hashed), "empty: unset")
        XCTAssertEqual(locate(["SSL_CERT_DIR": plain], hashed), .defaultPaths, "a private directory adds to the bundle")
        XCTAssertEqual(locate(["SSL_CERT_DIR": hashed + ":" + plain], hashed), .defaultPaths, "a list of directories")
        XCTAssertEqual(locate(["SSL_CERT_FILE": server.caFile], hashed), .defaultPaths, "another bundle")
        // A directory of more names than looked at, none a hashed link: the scan stops at its bound.
        let crowded = try hashedFolder("crowded", [])
        for i in 0..<40 { XCTAssertTrue(FileManager.default.createFile(atPath: crowded + "/n\(i).txt", contents: Data())) }
        XCTAssertEqual(SystemTrust.hashedLink(in: crowded, most: 10).found, false)
        XCTAssertEqual(SystemTrust.hashedLink(in: crowded, most: 10).looked, 10)
        XCTAssertEqual(SystemTrust.hashedLink(in: crowded, most: 1_000).looked, 42, "40 names, . and ..")
        for name in ["0123abcd.0", "ffffffff.12", "00000000.r0x"] {
            XCTAssertEqual(SystemTrust.isHashedName(name), name != "00000000.r0x", name)
        }
        for name in ["0123ABCD.0", "0123abc.0", "0123abcd.", "0123abcd0", "ca-certificates.crt", "0123abcdx.0", ""] {
            XCTAssertFalse(SystemTrust.isHashedName(name), name)
        }
        // This machine's (Debian's `/etc/ssl/certs`, linked by update-ca-certificates) is such a directory.
        if SystemTrust.hasHashedLinks("/etc/ssl/certs") {
            XCTAssertNotEqual(SystemTrust.locate { _ in nil }, .defaultPaths)
        }
    }
}
