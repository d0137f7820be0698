import CorpusGenerator
import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// Syncs through Tools/test-server/imap-fault-proxy (dropped connections, stalls, NO/BAD/BYE, reordered
/// untagged responses) with fixed seeds, while the server changes and a folder's UIDVALIDITY changes; then a
/// clean sync through the same proxy with faults off converges to the server exactly.
final class FaultProxyTests: SyncTestCase {
    private var proxy: Process?

    override func tearDown() {
        stopPythonProxy(proxy)
        proxy = nil
        super.tearDown()
    }

    /// Starts the proxy with `seed` and returns its port.
    private func startProxy(seed: Int) throws -> Int {
        let started = try startPythonProxy("imap-fault-proxy", ["--dovecot", dovecot.dir, "--seed", "\(seed)", "--rate", "0.6",
                                                                "--stall", "3"], what: "fault proxy")
        proxy = started.process
        return started.port
    }

    /// The server deletes and recreates `folder` with the same messages: a new UIDVALIDITY.
    private func recreate(_ folder: String, via c: IMAPConnection) throws {
        let sel = try c.select(MailboxName(folder))
        var messages: [[UInt8]] = []
        if sel.exists > 0 {
            try c.uidFetch(.all, [.uid, .body(.entire)]) { m in if let body = m.body { messages.append(body) } }
        }
        _ = try c.select(.inbox)
        try c.delete(MailboxName(folder))
        try c.create(MailboxName(folder))
        for m in messages { _ = try c.append(to: MailboxName(folder), message: m, flags: []) }
    }

    private func runFaultSequence(seed: Int) throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", (0..<30).map { (id: "f\(seed)-\($0)", subject: "Fault \($0)", parent: nil, flags: [String]()) }, via: c)
        try fill("Projects", (0..<12).map { (id: "fp\(seed)-\($0)", subject: "Project \($0)", parent: nil, flags: ["\\Seen"]) }, via: c)
        let port = try startProxy(seed: seed)
        try mailstore(["account", "add", accountName, "--email", user!, "--host", dovecot.host, "--port", "\(port)",
                       "--security", "tls", "--password-file", passwordFile!, "--ca-file", dovecot.caFile])
        views = nil
        store = nil
        var rng = SplitMix64(seed: UInt64(seed))
        var failures = 0
        for round in 0..<10 {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["sync", "--quiet", "--timeout", "2", "--batch-messages", "5"],
                                         environment: environment)
            XCTAssertTrue([0, 5].contains(r.status), "round \(round): status \(r.status): \(r.stderr)")
            if r.status != 0 { failures += 1 }
            // The server changes meanwhile: new mail, flags, an expunge, and once a new UIDVALIDITY.
            _ = try c.select(.inbox)
            let uids = try c.uidSearch([.all])
            if !uids.isEmpty {
                let some = (0..<3).map { _ in uids[Int(rng.next() % UInt64(uids.count))] }
                _ = try c.uidStore(UIDSet(some), round % 2 == 0 ? .add : .remove, flags: [round % 3 == 0 ? "\\Flagged" : "\\Seen"])
                if round % 4 == 1 {
                    let victim = UIDSet(uids[Int(rng.next() % UInt64(uids.count))])
                    _ = try c.uidStore(victim, .add, flags: ["\\Deleted"])
                    try c.uidExpunge(victim)
                }
            }
            try fill("INBOX", [(id: "late\(seed)-\(round)", subject: "Late \(round)", parent: nil, flags: [])], via: c)
            if round == 5 { try recreate("Projects", via: c) }
        }
        XCTAssertGreaterThan(failures, 0, "seed \(seed): the proxy injected faults that failed syncs")
        // Faults off: a clean sync through the same proxy converges exactly.
        kill(proxy!.processIdentifier, SIGUSR1)
        try mailstore(["sync", "--quiet", "--timeout", "10"])
        try mailstore(["verify"])
        try mailstore(["verify", "--views"])
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        try assertViewsMatchServer()
        var copies = Set<String>()
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() {
                let key = "\(p.folder)/\(p.uidValidity ?? 0)/\(p.uid ?? 0)"
                XCTAssertTrue(copies.insert(key).inserted, "seed \(seed): EmailReceived twice for \(key)")
            }
            return true
        }
    }

    func testSeed1ConvergesAfterFaults() throws { try runFaultSequence(seed: 1) }
    func testSeed2ConvergesAfterFaults() throws { try runFaultSequence(seed: 2) }
}
