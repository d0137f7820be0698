import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import TestSupport
import XCTest

/// `MailStore.backup(to:)`: a compacted, verified copy of the log that is itself a store, taken while writers go on,
/// private (0700/0600), without secrets unless asked, written whole or not at all.
final class BackupTests: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("backup")
        store = try MailStore.create(at: dir.file("store"))
    }

    override func tearDown() {
        store = nil
        dir = nil
    }

    private func maildir(_ ids: [String]) throws -> String {
        let root = dir.file("md")
        for (i, id) in ids.enumerated() {
            let path = root + "/cur/17000000\(10 + i).\(i).host:2,S"
            try FileManager.default.createDirectory(atPath: root + "/cur", withIntermediateDirectories: true)
            let text = "From: Alice <alice@example.com>\r\nTo: bob@example.org\r\nSubject: about \(id)\r\n"
                + "Date: Mon, 15 Jan 2024 09:3\(i % 10):00 +0000\r\nMessage-ID: <\(id)@example.com>\r\n\r\nBody of \(id).\r\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st.st_mode & 0o7777
    }

    /// Every event of a log: sequence, id, type and payload.
    private func events(_ s: MailStore) throws -> [StoredEvent] {
        var out: [StoredEvent] = []
        try s.log.scan { out.append($0); return true }
        return out
    }

    func testABackupIsAVerifiedPrivateStoreOfTheSameLog() throws {
        let md = try maildir(["a", "b", "c"])
        _ = try Importer(store: store).importMaildir(md)
        try FileManager.default.createDirectory(atPath: dir.file("store/secrets"), withIntermediateDirectories: true)
        try Data("{\"token\":\"x\"}".utf8).write(to: URL(fileURLWithPath: dir.file("store/secrets/work.oauth")))
        // A token file's refresh lock is no secret, nor counted as one.
        try Data().write(to: URL(fileURLWithPath: dir.file("store/secrets/work.oauth.lock")))
        let old = umask(0o022)
        defer { umask(old) }
        var told: [(UInt64, UInt64)] = []
        let report = try store.backup(to: dir.file("bk"), copyProgress: { told.append(($0, $1)) })
        XCTAssertTrue(told.allSatisfy { $0.0 <= $0.1 && $0.1 == UInt64(report.sourceFileBytes) }, "\(told)")

        let head = try store.head()
        XCTAssertEqual(report.headSequence, head.sequence)
        XCTAssertEqual(report.headHash, head.hash)
        XCTAssertEqual(report.verification?.isClean, true, "\(String(describing: report.verification?.problems))")
        XCTAssertEqual(report.verification?.eventsChecked, head.sequence)
        XCTAssertEqual(report.verification?.blobsChecked, 3)
        XCTAssertEqual(report.secretsCopied, 0)
        XCTAssertEqual(report.secretsLeftOut, 1)
        XCTAssertGreaterThan(report.copyFileBytes, 0)
        XCTAssertLessThanOrEqual(report.copyFileBytes, report.sourceFileBytes, "compacted")
        // Private whatever the umask, and only the log: no views, no secrets, nothing half-written left.
        XCTAssertEqual(mode(dir.file("bk")), 0o700)
        XCTAssertEqual(mode(dir.file("bk/log")), 0o700)
        XCTAssertEqual(mode(dir.file("bk/FORMAT")), 0o600)
        XCTAssertEqual(mode(dir.file("bk/log/data.mdb")), 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("bk")).sorted(), ["FORMAT", "log"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir.file("bk/FORMAT"))),
                       try Data(contentsOf: URL(fileURLWithPath: dir.file("store/FORMAT"))))

        // The backup is the store's log, and a store: its views are built where it is used, an import into it is
        // as idempotent as into the store, and new mail is appended after the copied head.
        let copy = try MailStore.open(at: dir.file("bk"))
        XCTAssertEqual(try events(copy), try events(store))
        let blob = try XCTUnwrap(try events(store).lazy.compactMap { e -> BlobHash? in
            if case .emailReceived(let p)? = try? e.decode() { return p.blob }
            return nil
        }.first)
        XCTAssertEqual(try copy.blob(blob), try store.blob(blob))
        XCTAssertEqual(try Importer(store: copy).importMaildir(md).imported, 0)
        XCTAssertEqual(try Importer(store: copy).importMaildir(try maildir(["a", "b", "c", "d"])).imported, 1)
        XCTAssertEqual(try copy.verifyLog().isClean, true)
        XCTAssertEqual(try store.head().sequence, head.sequence, "the store itself is unchanged")
    }

    func testSecretsAreCopiedOnlyWhenAskedAndOnlyRegularFiles() throws {
        let secrets = dir.file("store/secrets")
        try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
        try Data("one".utf8).write(to: URL(fileURLWithPath: secrets + "/a.oauth"))
        chmod(secrets + "/a.oauth", 0o644)
        try Data("half".utf8).write(to: URL(fileURLWithPath: secrets + "/b.oauth.123.tmp"))
        try Data("elsewhere".utf8).write(to: URL(fileURLWithPath: dir.file("outside")))
        XCTAssertEqual(symlink(dir.file("outside"), secrets + "/c.oauth"), 0)
        XCTAssertEqual(mkfifo(secrets + "/d.oauth", 0o600), 0)
        let report = try store.backup(to: dir.file("bk"), includeSecrets: true, verify: false)
        XCTAssertNil(report.verification)
        XCTAssertEqual(report.secretsCopied, 1)
        // What is not a regular file is not copied, and said so with why.
        XCTAssertEqual(report.secretsSkipped.map(\.name), ["c.oauth", "d.oauth"])
        let why = report.secretsSkipped.map(\.why)
        XCTAssertTrue(why.first?.contains("symbolic link (to \(dir.file("outside")))") == true, "\(why)")
        XCTAssertTrue(why.last?.contains("FIFO") == true, "\(why)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("bk/secrets")), ["a.oauth"])
        XCTAssertEqual(try String(contentsOfFile: dir.file("bk/secrets/a.oauth"), encoding: .utf8), "one")
        XCTAssertEqual(mode(dir.file("bk/secrets")), 0o700)
        XCTAssertEqual(mode(dir.file("bk/secrets/a.oauth")), 0o600)

        // A secret file past its bound (256 KiB) is not read whole: the backup fails and leaves nothing.
        try Data(repeating: 0x41, count: 256 * 1024 + 1).write(to: URL(fileURLWithPath: secrets + "/huge.oauth"))
        XCTAssertThrowsError(try store.backup(to: dir.file("bk2"), includeSecrets: true)) {
            guard case .copyFailed(_, let why)? = $0 as? BackupError else { return XCTFail("\($0)") }
            XCTAssertTrue(why.contains("huge.oauth cannot be read: larger than 256 KiB"), why)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("bk2")))
        XCTAssertEqual(try store.backup(to: dir.file("bk3")).secretsLeftOut, 2, "without --include-secrets it is only counted")
    }

    /// Accounts whose secret is a file outside the store (never in a backup) are named, never their secrets; a removed
    /// account, or one whose secret is a command or a variable, is not.
    func testAccountsWhosePasswordFileIsOutsideTheStoreAreNamed() throws {
        let pw = dir.file("pw")
        try Data("hunter2".utf8).write(to: URL(fileURLWithPath: pw))
        chmod(pw, 0o600)
        for (name, credential) in [("work", CredentialSource.file(pw)), ("home", .environment("MAILSTORE_UNUSED")), ("old", .file(pw))] {
            try store.addAccount(AccountSettings(name: name, email: "\(name)@example.com", host: "imap.example.com", port: 993,
                                                 security: "tls", credential: credential))
        }
        try store.removeAccount(named: "old")
        let report = try store.backup(to: dir.file("bk"), includeSecrets: true)
        XCTAssertEqual(report.accountsWithSecretsOutside, ["work"])
        XCTAssertEqual(try store.backup(to: dir.file("bk2")).accountsWithSecretsOutside, ["work"], "said without --include-secrets too")
    }

    /// A log whose account streams cannot be read for the accounts whose secret is outside the store (a record its
    /// stream index names is gone: a damaged page) does not name none without a word: the report says the list could
    /// not be made, and why. The copy's verification names the damage.
    func testAccountsWithSecretsOutsideThatCannotBeListedAreSaidSo() throws {
        let pw = dir.file("pw")
        try Data("hunter2".utf8).write(to: URL(fileURLWithPath: pw))
        chmod(pw, 0o600)
        for (name, credential) in [("home", CredentialSource.environment("MAILSTORE_UNUSED")), ("work", .file(pw)), ("zed", .file(pw))] {
            try store.addAccount(AccountSettings(name: name, email: "\(name)@example.com", host: "imap\(name).example.com", port: 993,
                                                 security: "tls", credential: credential))
        }
        var added: UInt64?
        try store.log.scan(filter: ScanFilter(stream: .account("work"))) { added = $0.envelope.sequence; return true }
        let sequence = try XCTUnwrap(added)
        let key = withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
        let events = try store.log.environment.openDatabase("events")
        XCTAssertTrue(try store.log.environment.write { txn in try txn.delete(events, key: key) })
        let report = try store.backup(to: dir.file("bk"), includeSecrets: true)
        XCTAssertEqual(report.verification?.isClean, false, "the copy's verification names the damage")
        XCTAssertEqual(report.accountsWithSecretsOutside, [])
        let why = try XCTUnwrap(report.accountsWithSecretsOutsideUnlisted, "the list could not be made, and that is said")
        XCTAssertTrue(why.contains("the stream index names a missing event"), why)
        // Undamaged, they are listed and nothing is said.
        let clean = try MailStore.create(at: dir.file("clean"))
        try clean.addAccount(AccountSettings(name: "work", email: "work@example.com", host: "imap.example.com", port: 993,
                                             security: "tls", credential: .file(pw)))
        let listed = try clean.backup(to: dir.file("bk2"))
        XCTAssertEqual(listed.accountsWithSecretsOutside, ["work"])
        XCTAssertNil(listed.accountsWithSecretsOutsideUnlisted)
    }

    func testADestinationThatIsNotNewOrEmptyOrIsInsideTheStoreIsRefusedUntouched() throws {
        try FileManager.default.createDirectory(atPath: dir.file("full"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir.file("full/mine")))
        XCTAssertThrowsError(try store.backup(to: dir.file("full"))) {
            XCTAssertEqual($0 as? BackupError, .destinationNotEmpty(dir.file("full")))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("full")), ["mine"])
        XCTAssertThrowsError(try store.backup(to: dir.file("full/mine"))) {
            XCTAssertEqual($0 as? BackupError, .destinationNotEmpty(dir.file("full/mine")))
        }
        // A symbolic link, even to an empty folder, is not written through.
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: true)
        XCTAssertEqual(symlink(dir.file("empty"), dir.file("link")), 0)
        XCTAssertThrowsError(try store.backup(to: dir.file("link"))) {
            XCTAssertEqual($0 as? BackupError, .destinationIsLink(dir.file("link"), dir.file("empty")))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("empty")), [])
        // A dangling one is named as a link too (it "exists" as nothing else).
        XCTAssertEqual(symlink(dir.file("nowhere"), dir.file("dangling")), 0)
        XCTAssertThrowsError(try store.backup(to: dir.file("dangling"))) {
            XCTAssertEqual($0 as? BackupError, .destinationIsLink(dir.file("dangling"), dir.file("nowhere")))
            XCTAssertTrue("\($0)".contains("is a symbolic link (to \(dir.file("nowhere")))"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("nowhere")))
        // The store, a folder inside it (also through a link to the store), or under a missing parent.
        XCTAssertEqual(symlink(dir.file("store"), dir.file("storelink")), 0)
        for inside in [dir.file("store"), dir.file("store/views/x"), dir.file("storelink/new"), dir.file("store/")] {
            XCTAssertThrowsError(try store.backup(to: inside), inside) {
                guard case .destinationInsideStore? = $0 as? BackupError else { return XCTFail("\(inside): \($0)") }
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("store/views/x")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("store/new")))
        XCTAssertThrowsError(try store.backup(to: dir.file("missing/bk"))) {
            guard case .badDestination? = $0 as? BackupError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try store.backup(to: "/" + String(repeating: "d", count: 5_000))) {
            guard case .badDestination? = $0 as? BackupError else { return XCTFail("\($0)") }
        }
        // An empty folder others may write in is not used (they could swap what is written there for a link).
        chmod(dir.file("empty"), 0o777)
        XCTAssertThrowsError(try store.backup(to: dir.file("empty"))) {
            guard case .badDestination(_, let why)? = $0 as? BackupError else { return XCTFail("\($0)") }
            XCTAssertTrue(why.contains("others may write in it"), why)
        }
        // An empty folder of one's own is used as it is.
        chmod(dir.file("empty"), 0o755)
        XCTAssertEqual(try store.backup(to: dir.file("empty")).verification?.isClean, true)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: dir.file("empty"))[.posixPermissions] as? Int, 0o700,
                       "made private, as a folder the backup makes is")
    }

    /// A backup killed midway leaves its folder marked: the next backup into it clears what that one wrote, and only
    /// that; a folder another backup is writing into (its marker locked) is refused untouched.
    func testWhatAKilledBackupLeftIsClearedAndARunningOnesFolderIsRefused() throws {
        let marker = ".mailstore-backup-unfinished"
        func leftovers(_ folder: String, extra: [String] = []) throws {
            try FileManager.default.createDirectory(atPath: dir.file(folder + "/log.partial"), withIntermediateDirectories: true)
            try Data(repeating: 7, count: 5_000).write(to: URL(fileURLWithPath: dir.file(folder + "/log.partial/data.mdb")))
            // A copy written whole but not verified (or failing verification): not in place.
            try FileManager.default.createDirectory(atPath: dir.file(folder + "/unverified/log"), withIntermediateDirectories: true)
            for name in ["FORMAT", "log/data.mdb"] {
                try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: dir.file(folder + "/unverified/" + name)))
            }
            for name in [marker, "FORMAT.4242.tmp"] + extra { try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file(folder + "/" + name))) }
        }
        try leftovers("killed")
        let report = try store.backup(to: dir.file("killed"))
        XCTAssertTrue(report.clearedUnfinished)
        XCTAssertEqual(report.verification?.isClean, true)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("killed")).sorted(), ["FORMAT", "log"])
        XCTAssertFalse(try store.backup(to: dir.file("fresh")).clearedUnfinished)

        // Beside something a backup does not write, nothing is cleared; without the marker, neither.
        try leftovers("mixed", extra: ["notes.txt"])
        XCTAssertThrowsError(try store.backup(to: dir.file("mixed"))) { XCTAssertEqual($0 as? BackupError, .destinationNotEmpty(dir.file("mixed"))) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("mixed")).count, 5)
        try leftovers("unmarked")
        XCTAssertEqual(unlink(dir.file("unmarked/" + marker)), 0)
        XCTAssertThrowsError(try store.backup(to: dir.file("unmarked"))) { XCTAssertEqual($0 as? BackupError, .destinationNotEmpty(dir.file("unmarked"))) }

        // A backup writing there now holds its marker locked.
        try leftovers("busy")
        let fd = open(dir.file("busy/" + marker), O_RDWR)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        XCTAssertThrowsError(try store.backup(to: dir.file("busy"))) { XCTAssertEqual($0 as? BackupError, .destinationBusy(dir.file("busy"))) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.file("busy/log.partial/data.mdb")), "nothing of it removed")
        close(fd)
        XCTAssertTrue(try store.backup(to: dir.file("busy")).clearedUnfinished, "its lock gone (the holder died), it is cleared")
    }

    /// A copy that fails verification is not put in place: it is kept in `unverified/` for inspection, the folder still
    /// marked unfinished, and the next backup into the folder clears it.
    func testACopyThatFailsVerificationIsNotPutInPlace() throws {
        _ = try Importer(store: store).importMaildir(try maildir(["a", "b"]))
        // A record whose key is not the next sequence (what a damaged page gives): the copy has it too.
        let events = try store.log.environment.openDatabase("events")
        try store.log.environment.write { txn in _ = try txn.put(events, key: [0, 0, 0, 0, 0, 0, 0, 1, 0], value: [1, 2, 3]) }
        let report = try store.backup(to: dir.file("bk"))
        XCTAssertEqual(report.verification?.isClean, false)
        XCTAssertEqual(report.copyFolder, dir.file("bk/unverified"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("bk")).sorted(), [".mailstore-backup-unfinished", "unverified"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("bk/unverified")).sorted(), ["FORMAT", "log"])
        XCTAssertEqual(mode(dir.file("bk/unverified")), 0o700)
        let again = try store.backup(to: dir.file("bk"))
        XCTAssertTrue(again.clearedUnfinished)
        XCTAssertEqual(again.verification?.isClean, false)
    }

    /// Writers go on during the copy: each backup is the log at one commit (a prefix of the final log, its chain
    /// intact), never a torn mixture.
    func testBackupsTakenWhileAnotherThreadAppendsAreEachTheLogAtOneCommit() throws {
        let writer = Thread { [store] in
            for batch in 0..<150 {
                let events = (0..<20).map { i in
                    NewEvent(event: .folderDiscovered(FolderDiscovered(folder: "F\(batch)-\(i)", displayName: "F", role: .custom)),
                             account: "acct", stream: .folder(account: "acct", path: "F\(batch)-\(i)"), actor: .sync)
                }
                try! store!.log.append(events)
            }
        }
        writer.start()
        var reports: [BackupReport] = []
        for i in 0..<4 { reports.append(try store.backup(to: dir.file("bk\(i)"))) }
        while !writer.isFinished { usleep(10_000) }
        let all = try events(store)
        for (i, r) in reports.enumerated() {
            XCTAssertEqual(r.verification?.isClean, true, "backup \(i): \(String(describing: r.verification?.problems))")
            let copied = try events(try MailStore.open(at: dir.file("bk\(i)"), readOnly: true))
            XCTAssertEqual(UInt64(copied.count), r.headSequence)
            XCTAssertEqual(copied, Array(all.prefix(copied.count)), "backup \(i) is a prefix of the log")
        }
        XCTAssertEqual(UInt64(all.count), try store.head().sequence)
    }

    /// A disk that fills up during the copy: a clear error, nothing of the backup left, and the store as it was.
    func testABackupOntoAFullDiskFailsCleanly() throws {
        let fs: SmallFilesystem
        do { fs = try SmallFilesystem(megabytes: 8) } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }
            throw XCTSkip("\(error)")
        }
        var md: [String] = []
        for i in 0..<40 { md.append("m\(i)") }
        _ = try Importer(store: store).importMaildir(try maildir(md))
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: dir.file("store/log/data.mdb"))[.size] as? Int)
        try fs.fill(leaving: 16 << 10)
        XCTAssertGreaterThan(size, 64 << 10, "the copy needs more room than is left")
        XCTAssertThrowsError(try store.backup(to: fs.path + "/bk")) {
            guard case .copyFailed(_, let why)? = $0 as? BackupError else { return XCTFail("\($0)") }
            XCTAssertEqual(why, "the disk is full")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fs.path + "/bk"), "what was written is removed")
        XCTAssertEqual(try store.verifyLog().isClean, true)
        fs.free()
        XCTAssertEqual(try store.backup(to: fs.path + "/bk").verification?.isClean, true)
    }

    /// Skips a test that needs root (mounts) outside CI; in CI (`CI=true`, where it can mount) a failure stands.
    private func needsRoot(_ what: String) throws {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("cannot make \(what)") }
        throw XCTSkip("cannot make \(what) (needs root; CI=true makes this a failure)")
    }

    /// A folder nothing can be written in (a read-only filesystem; no inodes left) is said as such, with the errno
    /// and what to do, not taken for a folder that is not empty; a folder the backup made is removed again.
    func testAFolderThatCannotBeWrittenInSaysWhyWithTheErrno() throws {
        let ro = dir.file("ro")
        try FileManager.default.createDirectory(atPath: ro + "/e", withIntermediateDirectories: true)
        chmod(ro + "/e", 0o700)
        do {
            guard let mount = ReadOnlyMount(ro) else { return try needsRoot("a read-only bind mount") }
            defer { withExtendedLifetime(mount) {} }
            for dest in [ro + "/e", ro + "/new"] {
                XCTAssertThrowsError(try store.backup(to: dest), dest) {
                    guard case .cannotWrite(let p, let why)? = $0 as? BackupError else { return XCTFail("\(dest): \($0)") }
                    XCTAssertEqual(p, dest)
                    XCTAssertTrue(why.contains("(EROFS): the filesystem is mounted read-only"), why)
                    XCTAssertEqual(ErrorCategory(of: $0), .data, "exit 3")
                }
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ro).sorted(), ["e"])
        }
        // Room for the folder and no more: the marker cannot be made, and the folder made for it goes again.
        let fs: SmallFilesystem
        do { fs = try SmallFilesystem(megabytes: 8, inodes: 2) } catch { return try needsRoot("a tmpfs: \(error)") }
        XCTAssertThrowsError(try store.backup(to: fs.path + "/bk")) {
            guard case .cannotWrite(_, let why)? = $0 as? BackupError else { return XCTFail("\($0)") }
            XCTAssertTrue(why.contains("(ENOSPC): the disk has no free inodes left"), why)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fs.path + "/bk"))
    }

    /// A bind mount of the store is the store: a backup into it (or into a folder inside it) is refused as a backup
    /// inside the store, whatever path names it.
    func testTheStoreThroughABindMountIsStillTheStore() throws {
        let other = dir.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        guard let mount = BindMount(dir.file("store"), on: other) else { return try needsRoot("a bind mount") }
        defer { withExtendedLifetime(mount) {} }
        for dest in [other, other + "/log/x", other + "/views/new"] {
            XCTAssertThrowsError(try store.backup(to: dest), dest) {
                XCTAssertEqual($0 as? BackupError, .destinationInsideStore(dest), dest)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("store/log/x")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("store/views/new")))
    }

    /// A write past the file-size limit (`ulimit -f`, SIGXFSZ ignored as the CLI ignores it) fails the backup with the
    /// limit named, not an LMDB error code; nothing of it is left.
    func testAFileSizeLimitIsNamed() throws {
        var md: [String] = []
        for i in 0..<40 { md.append("m\(i)") }
        _ = try Importer(store: store).importMaildir(try maildir(md))
        var old = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old), 0)
        let oldHandler = signal(SIGXFSZ, SIG_IGN)
        var low = old
        low.rlim_cur = 32 << 10
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &low), 0)
        let result = Result { try store.backup(to: dir.file("bk")) }
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old), 0)
        signal(SIGXFSZ, oldHandler)
        XCTAssertThrowsError(try result.get()) {
            guard case .copyFailed(_, let why)? = $0 as? BackupError else { return XCTFail("\($0)") }
            XCTAssertTrue(why.contains("(EFBIG): a file would pass the file-size limit (`ulimit -f`"), why)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("bk")))
    }
}
