import EventLog
import EventModel
import Foundation
import Glibc
import LMDB
import Views

/// Backing the store up while it is in use.
extension MailStore {
    /// The most OAuth token files a backup looks at in `secrets/` (one per account: far more than any store holds).
    static let maxSecretFiles = 10_000
    /// The largest secret file copied (`OAuthTokenFile`'s own bound).
    static let maxSecretBytes = 256 * 1024

    /// Writes a backup of the store into the folder `path` (made with mode 0700 when missing; else it must be an
    /// empty folder): `FORMAT` and `log/data.mdb` (0600), a compacted copy of the log taken in one read transaction,
    /// so writers (a sync, an import, another process) go on meanwhile and the copy is the log at one commit. The
    /// views and the search index are not copied: they are rebuilt from the log where the backup is first used.
    /// OAuth token files (`secrets/`) are copied only with `includeSecrets`; without, they are counted.
    ///
    /// The backup is a store: `--store PATH` reads it, and restoring is putting its `FORMAT` and `log/` in place of
    /// a store's. It appears whole and verified or not at all: the copy is made in `unverified/` inside the folder
    /// (0700; the log written into `unverified/log.partial/` and synced, renamed, then `secrets/` and `FORMAT`), and
    /// with `verify` walked there as `mailstore verify` walks a store (hash chain, every record, indexes, every blob's
    /// hash), its head's chain hash compared with the store's at that sequence. Only then are its `log/`, `secrets/`
    /// and `FORMAT` (last) renamed into the folder and the folder's unfinished marker removed: a backup killed before
    /// that, verifying included, leaves no `FORMAT` in the folder and the marker there, and the next backup into the
    /// folder clears what it left. A failure (a full disk) removes what was written; a copy that fails verification
    /// is not put in place but kept in `unverified/` for inspection (the folder stays marked unfinished).
    ///
    /// `copyProgress` is told the bytes of the copy written so far and the log file's size (the copy, compacted, ends
    /// at most that), every 0.1 s on the calling thread; `progress`, the verification's (done, total).
    ///
    /// Memory: LMDB's copy writes through two 1 MiB buffers of its own, and the log's pages it maps are released
    /// past the mapped budget every 2 ms (`ResidentPageReleaser`); verifying is `verify`'s bound.
    public func backup(to path: String, includeSecrets: Bool = false, verify: Bool = true,
                       copyProgress: ((_ bytesWritten: UInt64, _ logFileBytes: UInt64) -> Void)? = nil,
                       progress: ((UInt64, UInt64) -> Void)? = nil) throws -> BackupReport {
        if let snapshot { throw MailStoreError.snapshot(sequence: snapshot.sequence) }
        let dest = try backupDestination(path)
        // The folder is claimed by a marker file held locked (`flock`) for the whole run: another backup into it meanwhile
        // is refused, and what a run killed midway left (the marker, unlocked once its holder died) is cleared.
        let (marker, made, clearedUnfinished) = try claimBackupFolder(dest)
        defer { close(marker) }
        let staging = dest + "/" + MailStore.unverifiedFolder
        let partial = staging + "/log.partial"
        // Each name in the copy's folder while it is unverified, and in the backup's once it is put in place.
        let (stagedLog, logFolder) = (staging + "/log", dest + "/log")
        let (stagedSecrets, secretsFolder) = (staging + "/secrets", dest + "/secrets")
        let (stagedFormat, format) = (staging + "/FORMAT", dest + "/FORMAT")
        func removeWritten() {
            MailStore.removeBackupEntries(dest)
            if made { rmdir(dest) }
        }
        let secrets: (copied: Int, leftOut: Int, skipped: [SkippedSecretFile])
        let copySeconds: Double
        do {
            // The marker on disk before anything it covers.
            guard MailStore.syncFolder(dest) else { throw BackupError.copyFailed(dest, "fsync(\(dest)): \(String(cString: strerror(errno)))") }
            guard let formatBefore = StoreDirectory.readSmallFile(directory.formatFile) else {
                throw BackupError.copyFailed(dest, "the store's format file \(directory.formatFile) cannot be read")
            }
            for folder in [staging, partial] where mkdir(folder, 0o700) != 0 {
                throw BackupError.copyFailed(dest, "\(folder): \(String(cString: strerror(errno)))")
            }
            let started = ContinuousClock.now
            // The copy reads every page of the log through the map: released as it goes, its resident size stays
            // near the budget (without, a 100K-message store's backup peaked at 468 MiB, the whole file). It runs on a
            // thread of its own (its read transaction begins and ends there) while this one reports the bytes written.
            let environment = log.environment
            let work = BackgroundWork { try ResidentPageReleaser.during(environment) { try environment.copy(to: partial, durable: true) } }
            if let copyProgress {
                let total = UInt64(Environment.fileSize(Environment.dataFile(directory.logPath)) ?? 0)
                let file = Environment.dataFile(partial)
                while !work.hasEnded {
                    copyProgress(UInt64(Environment.fileSize(file) ?? 0), total)
                    usleep(100_000)
                }
            }
            do { try work.wait().get() } catch let e as LMDBError {
                // A write past the file-size limit fails with EFBIG (once SIGXFSZ, which would kill the process, is ignored).
                throw BackupError.copyFailed(dest, e.code == ENOSPC ? "the disk is full"
                                             : e.code == EFBIG ? BackupError.writeProblem("write(\(Environment.dataFile(partial)))", EFBIG, folder: dest) : "\(e)")
            }
            copySeconds = MailStore.seconds(since: started)
            guard StoreDirectory.readSmallFile(directory.formatFile) == formatBefore else {
                throw BackupError.formatChangedDuringCopy(directory.formatFile)
            }
            guard rename(partial, stagedLog) == 0 else { throw BackupError.copyFailed(dest, "\(stagedLog): \(String(cString: strerror(errno)))") }
            secrets = try copySecrets(into: includeSecrets ? stagedSecrets : nil, dest: dest)
            do { try StoreDirectory.writePrivateFile(stagedFormat, bytes: formatBefore) } catch {
                throw BackupError.copyFailed(dest, "\(error)")
            }
            // The copy on disk with its folders before it is verified and put in place.
            for folder in [stagedLog, staging] where !MailStore.syncFolder(folder) {
                throw BackupError.copyFailed(dest, "fsync(\(folder)): \(String(cString: strerror(errno)))")
            }
        } catch {
            removeWritten()
            throw error
        }
        let head: (sequence: UInt64, hash: [UInt8])
        var verification: VerifyReport?
        let verifyStarted = ContinuousClock.now
        do {
            let copy = try MailStore.open(at: staging, readOnly: true)
            let copyHead = try copy.head()
            head = (copyHead.sequence, copyHead.hash)
            if verify {
                Failpoint.reached("backup-verifying")
                var report = try copy.verifyLog(checkBlobs: true, progress: progress)
                // The copy's chain, verified, ends in the hash the store's log has at that sequence: the two agree on
                // every event up to it.
                if try log.chainHash(at: head.sequence) != head.hash {
                    report.problems.append(.init(sequence: head.sequence, message: "the copy's chain hash differs from the store's log at this sequence"))
                }
                verification = report
            }
        } catch {
            removeWritten()
            throw error
        }
        let verifySeconds = verify ? MailStore.seconds(since: verifyStarted) : 0
        // Named so a restore is not taken for holding them (the accounts configured now). A log that cannot be read for
        // them here (a damaged stream index, which the copy's verification names too) does not fail the backup: the
        // report says the list could not be made, and why, rather than naming none.
        var outside: [String] = []
        var outsideUnlisted: String?
        do { outside = try accountsWithSecretsOutside() } catch { outsideUnlisted = "\(error)" }
        let placed = verification?.isClean ?? true
        if placed {
            // Into place, `FORMAT` last; then the backup is no longer unfinished.
            do {
                for (from, to) in [(stagedLog, logFolder), (stagedSecrets, secretsFolder), (stagedFormat, format)]
                where (to != secretsFolder || includeSecrets) && rename(from, to) != 0 {
                    throw BackupError.copyFailed(dest, "\(to): \(String(cString: strerror(errno)))")
                }
                guard rmdir(staging) == 0, MailStore.syncFolder(dest) else {
                    throw BackupError.copyFailed(dest, "\(staging): \(String(cString: strerror(errno)))")
                }
                guard unlink(dest + "/" + MailStore.unfinishedMarker) == 0, MailStore.syncFolder(dest) else {
                    throw BackupError.copyFailed(dest, "\(MailStore.unfinishedMarker): \(String(cString: strerror(errno)))")
                }
            } catch {
                removeWritten()
                throw error
            }
        }
        return BackupReport(
            destination: dest, copyFolder: placed ? dest : staging, headSequence: head.sequence, headHash: head.hash,
            sourceFileBytes: Environment.fileSize(Environment.dataFile(directory.logPath)) ?? 0,
            copyFileBytes: Environment.fileSize(Environment.dataFile(placed ? logFolder : stagedLog)) ?? 0,
            secretsCopied: secrets.copied, secretsLeftOut: secrets.leftOut, secretsSkipped: secrets.skipped,
            accountsWithSecretsOutside: outside, accountsWithSecretsOutsideUnlisted: outsideUnlisted, clearedUnfinished: clearedUnfinished, verification: verification,
            copySeconds: copySeconds, verifySeconds: verifySeconds)
    }

    /// Claims folder `dest` for a backup: made when missing (0700), else it must be empty or hold what a killed
    /// backup left (cleared here); the marker file made or taken over, and locked. Returns the marker's descriptor
    /// (the lock goes with it), whether the folder was made, and whether a killed backup's leftovers were cleared.
    /// A folder that cannot be made or written in (a read-only filesystem, an immutable folder, no space or inodes)
    /// is `BackupError.cannotWrite`, with the errno.
    private func claimBackupFolder(_ dest: String) throws -> (marker: Int32, made: Bool, cleared: Bool) {
        let markerPath = dest + "/" + MailStore.unfinishedMarker
        let parent = (dest as NSString).deletingLastPathComponent
        var st = stat()
        if lstat(dest, &st) != 0 {
            let lstatError = errno
            guard lstatError == ENOENT else { throw BackupError.cannotWrite(dest, BackupError.writeProblem("lstat", lstatError, folder: parent)) }
            guard mkdir(dest, 0o700) == 0 else {
                let code = errno
                throw BackupError.cannotWrite(dest, BackupError.writeProblem("mkdir", code, folder: parent))
            }
            let fd: Int32?
            do { fd = try MailStore.lockedMarker(markerPath, create: true, in: dest) } catch {
                rmdir(dest)
                throw error
            }
            guard let fd else {
                rmdir(dest)
                throw BackupError.destinationBusy(dest)
            }
            return (fd, true, false)
        }
        if st.st_mode & S_IFMT == S_IFLNK {
            throw BackupError.destinationIsLink(dest, MailStore.linkTarget(dest) ?? "an unreadable target")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw BackupError.destinationNotEmpty(dest) }
        // Another user could swap what is written there (a folder for a link elsewhere) or read what a mode lets out.
        guard st.st_uid == getuid(), st.st_mode & 0o022 == 0 else {
            throw BackupError.badDestination(dest, "it is not yours or others may write in it (a backup holds the mail): make a folder of your own, mode 0700")
        }
        if MailStore.isEmptyFolder(dest) {
            guard let fd = try MailStore.lockedMarker(markerPath, create: true, in: dest) else { throw BackupError.destinationBusy(dest) }
            // Private, as a folder the backup makes is (an empty folder made beforehand kept its 0755).
            if st.st_mode & 0o777 != 0o700 { _ = chmod(dest, 0o700) }
            return (fd, false, false)
        }
        // Its marker, and nothing but names a backup writes: someone else's files are never touched.
        guard MailStore.isUnfinishedBackup(dest) else { throw BackupError.destinationNotEmpty(dest) }
        guard let fd = try MailStore.lockedMarker(markerPath, create: false, in: dest) else { throw BackupError.destinationBusy(dest) }
        MailStore.removeBackupEntries(dest, keepingMarker: true)
        guard let names = ScratchFolder.entries(of: dest, most: 2), names == [MailStore.unfinishedMarker] else {
            close(fd)
            throw BackupError.badDestination(dest, "an unfinished backup there could not be cleared")
        }
        return (fd, false, true)
    }

    /// The marker at `path` (in folder `dest`) opened (made when `create`, failing if it exists) and locked; nil when
    /// another backup holds it (locked, or made meanwhile) or it was removed meanwhile (that backup finished). Any other
    /// failure to open it (a read-only filesystem, an immutable folder, no inodes) is `BackupError.cannotWrite`.
    private static func lockedMarker(_ path: String, create: Bool, in dest: String) throws -> Int32? {
        let flags = create ? O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW : O_RDWR | O_CLOEXEC | O_NOFOLLOW
        let fd = Glibc.open(path, flags, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST || code == ENOENT { return nil }
            throw BackupError.cannotWrite(dest, BackupError.writeProblem("open(\(unfinishedMarker))", code, folder: dest))
        }
        var mine = stat(), there = stat()
        // Locked, and still the file at the path (not one a finishing backup unlinked after it was opened here).
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &mine) == 0, lstat(path, &there) == 0,
              mine.st_ino == there.st_ino, mine.st_dev == there.st_dev else {
            close(fd)
            return nil
        }
        return fd
    }

    /// What the symbolic link at `path` points to, or nil when it cannot be read.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, Int(PATH_MAX))
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` made absolute, checked: not empty, not too long for the files under it, its parent an existing
    /// folder, and neither the store nor inside it.
    private func backupDestination(_ path: String) throws -> String {
        guard !path.isEmpty, !path.utf8.contains(0) else { throw BackupError.badDestination(path, "an empty or malformed path") }
        var dest = StoreDirectory.resolve(explicit: path)
        while dest.count > 1 && dest.hasSuffix("/") { dest.removeLast() }
        // Room for the longest name written under it (`unverified/log.partial/data.mdb`, 32 bytes with its slash).
        guard dest.utf8.count + 48 < Int(PATH_MAX) else { throw BackupError.badDestination(dest, "the path is longer than the system allows") }
        let name = (dest as NSString).lastPathComponent
        guard !name.isEmpty, name != "/", name != ".", name != ".." else { throw BackupError.badDestination(dest, "name a folder") }
        let parent = (dest as NSString).deletingLastPathComponent
        guard let parentReal = MailStore.realPath(parent) else {
            throw BackupError.badDestination(dest, "its parent folder \(parent) does not exist")
        }
        let destReal = parentReal == "/" ? "/" + name : parentReal + "/" + name
        if let storeReal = MailStore.realPath(directory.path), destReal == storeReal || destReal.hasPrefix(storeReal + "/") {
            throw BackupError.destinationInsideStore(dest)
        }
        // The same folder can have other paths (a bind mount of the store, or of a folder holding it): the destination
        // and each existing folder above it are compared with the store folder by device and inode.
        var store = stat(), st = stat()
        if stat(directory.path, &store) == 0 {
            if lstat(destReal, &st) == 0, st.st_dev == store.st_dev, st.st_ino == store.st_ino { throw BackupError.destinationInsideStore(dest) }
            var folder = parentReal
            while true {
                if stat(folder, &st) == 0, st.st_dev == store.st_dev, st.st_ino == store.st_ino { throw BackupError.destinationInsideStore(dest) }
                if folder == "/" || folder.isEmpty { break }
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        return dest
    }

    /// The store's secret files (`secrets/`: regular files, not temporary ones (`.tmp`, a token file's `.tmp-PID`) nor a
    /// token file's refresh lock) copied into `folder` (0700, each file 0600), or when `folder` is nil counted. At most
    /// `maxSecretFiles` names are looked at. When copying, the other entries (symbolic links, FIFOs, folders: not
    /// temporary, not hidden) are returned as skipped, with why.
    private func copySecrets(into folder: String?, dest: String) throws -> (copied: Int, leftOut: Int, skipped: [SkippedSecretFile]) {
        let source = directory.path + "/secrets"
        var names: [String] = []
        var skipped: [SkippedSecretFile] = []
        for name in ScratchFolder.entries(of: source, most: MailStore.maxSecretFiles) ?? []
        where !name.hasPrefix(".") && !name.hasSuffix(".tmp") && !name.contains(".tmp-") && !name.hasSuffix(".lock") {
            var st = stat()
            guard lstat(source + "/" + name, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFREG: names.append(name)
            case S_IFLNK:
                skipped.append(SkippedSecretFile(name: name, why: "it is a symbolic link (to \(MailStore.linkTarget(source + "/" + name) ?? "an unreadable target")), "
                                                 + "not followed; to have it in a backup, put the file itself in its place"))
            case S_IFIFO: skipped.append(SkippedSecretFile(name: name, why: "it is a FIFO, not a regular file"))
            case S_IFDIR: skipped.append(SkippedSecretFile(name: name, why: "it is a folder, not a regular file"))
            default: skipped.append(SkippedSecretFile(name: name, why: "it is not a regular file (a socket or a device)"))
            }
        }
        guard let folder else { return (0, names.count, []) }
        guard mkdir(folder, 0o700) == 0 else { throw BackupError.copyFailed(dest, "\(folder): \(String(cString: strerror(errno)))") }
        for name in names.sorted() {
            let bytes: [UInt8]
            do { bytes = try BoundedFile.read(source + "/" + name, maxBytes: MailStore.maxSecretBytes) } catch {
                let why = switch error {
                case .unreadable(let reason): reason
                case .notAFile: "not a regular file"
                case .tooLarge: "larger than \(MailStore.maxSecretBytes / 1024) KiB, which no OAuth token file is"
                }
                throw BackupError.copyFailed(dest, "the secret file \(source)/\(name) cannot be read: \(why)")
            }
            do { try StoreDirectory.writePrivateFile(folder + "/" + name, bytes: bytes) } catch {
                throw BackupError.copyFailed(dest, "\(error)")
            }
        }
        guard MailStore.syncFolder(folder) else { throw BackupError.copyFailed(dest, "fsync(\(folder)): \(String(cString: strerror(errno)))") }
        return (names.count, 0, skipped.sorted { $0.name < $1.name })
    }

    /// The accounts configured now (sorted names) whose secret, for IMAP or SMTP, is a file outside the store's
    /// `secrets/` (`file:PATH`, or an OAuth token file kept elsewhere): a backup never holds it. Reads the log's account
    /// streams only (the views are not opened); at most 10,000 names.
    private func accountsWithSecretsOutside() throws -> [String] {
        let prefix = StreamName.account("").rawValue
        let secrets = directory.path + "/secrets/"
        var names: [String] = []
        for streamName in try log.streamNames(prefix: prefix) {
            var latest: AccountAdded?
            try log.scanDecoded(filter: ScanFilter(stream: StreamName(rawValue: streamName))) { _, event in
                switch event {
                case .success(.accountAdded(let a)): latest = a
                case .success(.accountRemoved): latest = nil
                default: break
                }
                return true
            }
            guard let account = latest else { continue }
            let sources = [account.credentialSource, account.smtpCredentialSource].compactMap { $0 }
                .compactMap { CredentialSource(stored: $0)?.inStore(directory.path) }
            let outside = sources.contains { source in
                switch source {
                case .file: true
                case .oauth(let path): !path.hasPrefix(secrets)
                case .command, .environment: false
                }
            }
            if outside { names.append(account.name) }
        }
        return names.sorted()
    }

    /// The file that marks a backup's folder while it is written (removed once the verified copy is in place).
    static let unfinishedMarker = StoreDirectory.unfinishedBackupMarker

    /// The folder in a backup's folder where the copy is written and verified, before it is put in place.
    static let unverifiedFolder = "unverified"

    /// The names a backup writes in its folder (`FORMAT`'s temporary as `writePrivateFile` names it; `log.partial`
    /// and `FORMAT`'s temporary there, as builds before `unverifiedFolder` wrote them).
    private static func isBackupEntry(_ name: String) -> Bool {
        ["log.partial", "log", "secrets", "FORMAT", unverifiedFolder, unfinishedMarker].contains(name)
            || (name.hasPrefix("FORMAT.") && name.hasSuffix(".tmp") && name.count <= 32)
    }

    /// True when folder `path` holds what a killed backup left: its marker, and nothing but names a backup writes.
    private static func isUnfinishedBackup(_ path: String) -> Bool {
        guard let names = ScratchFolder.entries(of: path, most: 64), names.count < 64 else { return false }
        return names.contains(unfinishedMarker) && names.allSatisfy(isBackupEntry)
    }

    /// Removes from folder `path` the entries a backup writes, its marker last unless `keepingMarker` (a run killed
    /// meanwhile leaves the folder still marked).
    private static func removeBackupEntries(_ path: String, keepingMarker: Bool = false) {
        for name in ScratchFolder.entries(of: path, most: 64) ?? [] where isBackupEntry(name) && name != unfinishedMarker {
            try? FileManager.default.removeItem(atPath: path + "/" + name)
        }
        if !keepingMarker { unlink(path + "/" + unfinishedMarker) }
    }

    /// True when `path` is a folder holding nothing.
    private static func isEmptyFolder(_ path: String) -> Bool {
        ScratchFolder.entries(of: path, most: 1)?.isEmpty == true
    }


    /// `path` with its symbolic links resolved, or nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Syncs a folder's entries to disk; false (with `errno`) when it cannot.
    private static func syncFolder(_ path: String) -> Bool {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
