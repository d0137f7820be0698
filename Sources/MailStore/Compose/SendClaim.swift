import EventLog
import EventModel
import Foundation
import Glibc
import SecureTransport

/// A live process's hold on a message in the outbox: an exclusive `flock` on `STORE/locks/queued/HEX(draft).lock`
/// (file 0600, folder 0700). `mailstore send` holds it from before it records `MessageQueued` until the outcome is
/// recorded (through the undo delay, the wait for the send lock and the server's answers), and an `outbox retry` of
/// a queued message while it sends it. The kernel drops it when its holder ends, even by SIGKILL, so the
/// abandoned-send reclaim tells a live sender from one that ended without a clock: it takes back only a message whose
/// claim it can lock itself (`probe`). The holder removes the file when it lets go; one a killed holder left is removed
/// by the reclaim that takes its message back, or by `sweep`: the files are at most one a live sender or a message left
/// queued by an ended one.
///
/// `flock` is per machine: the processes of one store run on one machine (LMDB's own lock file needs that too).
package final class SendClaim: @unchecked Sendable {
    /// The draft the claim is on.
    package let draftID: String
    /// The claim file.
    package let file: String
    private var fd: Int32

    private init(draftID: String, file: String, fd: Int32) {
        self.draftID = draftID
        self.file = file
        self.fd = fd
    }

    /// What `probe` found of a message's claim.
    package enum Probe {
        /// No claim file: queued by a build before claims, or by the library without a claim (the time rule applies).
        case none
        /// A live process holds it, or it changed hands while looked at: the message is not abandoned.
        case held
        /// Its holder ended without letting go: the claim is the caller's now (its `release()` removes the file).
        case abandoned(SendClaim)
    }

    /// The folder of the claim files.
    package static func folder(_ store: StoreDirectory) -> String { store.path + "/locks/queued" }

    /// The claim file of `draftID` (draft ids are text from the log: hex keeps the name safe).
    static func path(_ store: StoreDirectory, _ draftID: String) -> String {
        folder(store) + "/" + Hex.lowercase(Array(draftID.utf8)) + ".lock"
    }

    /// Takes the claim on `draftID` for this process, waiting up to `waitSeconds` (polling every 20 ms) while
    /// another process holds it; `whileHeld` runs at each wait and may throw (a message in the outbox is another
    /// process's to send). Throws `DraftError.claimed` when it is still held after the wait.
    package static func take(store: StoreDirectory, draftID: String, waitSeconds: Double, whileHeld: () throws -> Void) throws -> SendClaim {
        try StoreDirectory.makePrivateDirectory(folder(store))
        let file = path(store, draftID)
        let deadline = Deadline(secondsFromNow: waitSeconds)
        while true {
            let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw StoreError.io(file, "cannot open the send claim file: \(String(cString: strerror(errno)))") }
            var holder: Int32?
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                // Still the file at the path: its last holder may have removed it between the open and the lock.
                if SendClaim.isAtPath(fd, file) { return SendClaim(draftID: draftID, file: file, fd: fd).naming() }
                close(fd)
            } else {
                let why = errno
                holder = SendClaim.holder(fd)
                close(fd)
                guard why == EWOULDBLOCK || why == EINTR else { throw StoreError.io(file, "cannot lock: \(String(cString: strerror(why)))") }
                try whileHeld()
            }
            if deadline.hasPassed { throw DraftError.claimed(draftID, holder) }
            usleep(20_000)
        }
    }

    /// Takes the claim on `draftID` if no other process holds it now; nil when one does.
    package static func tryTake(store: StoreDirectory, draftID: String) throws -> SendClaim? {
        try StoreDirectory.makePrivateDirectory(folder(store))
        let file = path(store, draftID)
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StoreError.io(file, "cannot open the send claim file: \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, SendClaim.isAtPath(fd, file) else {
            close(fd)
            return nil
        }
        return SendClaim(draftID: draftID, file: file, fd: fd).naming()
    }

    /// Whether a live process holds `draftID`'s claim, without waiting and without making a file.
    package static func probe(store: StoreDirectory, draftID: String) throws -> Probe {
        let file = path(store, draftID)
        let fd = open(file, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let why = errno
            if why == ENOENT { return .none }
            throw StoreError.io(file, "cannot open the send claim file: \(String(cString: strerror(why)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let why = errno
            close(fd)
            guard why == EWOULDBLOCK || why == EINTR else { throw StoreError.io(file, "cannot lock: \(String(cString: strerror(why)))") }
            return .held
        }
        // Removed by its holder (done) or made anew by another since the open: not an ended holder's.
        guard SendClaim.isAtPath(fd, file) else {
            close(fd)
            return .held
        }
        return .abandoned(SendClaim(draftID: draftID, file: file, fd: fd))
    }

    /// Removes the claim files no process holds whose message `inOutbox` says is no longer queued (left by holders
    /// killed after their message was sent, failed or taken back). Those of messages still queued are left to the
    /// reclaim of their account. Looks at most at `most` files a call.
    package static func sweep(store: StoreDirectory, most: Int = 1_000, stillQueued: (String) throws -> Bool) throws {
        guard let names = ScratchFolder.entries(of: folder(store), most: most) else { return }
        for name in names where name.hasSuffix(".lock") {
            guard let draftID = SendClaim.draftID(hexName: String(name.dropLast(".lock".count))),
                  case .abandoned(let claim) = try probe(store: store, draftID: draftID) else { continue }
            if try stillQueued(draftID) { claim.letGo() } else { claim.release() }
        }
    }

    /// When the holder of `draftID`'s claim sends it, on the monotonic clock (`noteDue`): nil when no live process holds
    /// the claim, or its holder did not say (an `outbox retry`, a build before 2026-12-07). Asks with a shared lock that
    /// it lets go of at once: it fails while the holder has the claim.
    package static func holderDue(store: StoreDirectory, draftID: String) -> Deadline? {
        let fd = open(path(store, draftID), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) != 0 else { return nil }
        guard errno == EWOULDBLOCK, let lines = contents(fd)?.split(separator: "\n"), lines.count >= 2,
              let instant = Double(lines[1]), instant.isFinite else { return nil }
        return Deadline(instant: instant)
    }

    /// Says in the claim file when this process sends the message, on the monotonic clock (`holderDue`): an undo asks
    /// that, not the wall clock, whether the undo delay is over (a wall clock stepped forward had ended it early for the
    /// undo only, and one stepped back had stretched it).
    package func noteDue(_ due: Deadline) {
        guard fd >= 0 else { return }
        setText("\(getpid())\n\(due.instant)\n")
    }

    /// Lets go of the claim and removes its file (the next holder makes it again).
    package func release() {
        guard fd >= 0 else { return }
        // Removed only while locked and still the file at the path: a waiting process then sees it gone and opens anew.
        if SendClaim.isAtPath(fd, file) { unlink(file) }
        close(fd)
        fd = -1
    }

    /// Lets go of the claim and leaves its file.
    func letGo() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { letGo() }

    /// Writes this process's id into the file, for the message of a process that waits for it.
    private func naming() -> SendClaim {
        setText("\(getpid())\n")
        return self
    }

    /// Replaces the file's text with `text` (a few bytes): written over the old text, then cut to its length, so a reader
    /// never finds the file empty.
    private func setText(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(fd, off_t(bytes.count))
    }

    /// The text of a claim file (at most 64 bytes: a pid and a due time).
    private static func contents(_ fd: Int32) -> String? {
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n], as: UTF8.self)
    }

    private static func isAtPath(_ fd: Int32, _ path: String) -> Bool {
        var mine = stat(), there = stat()
        return fstat(fd, &mine) == 0 && lstat(path, &there) == 0 && mine.st_ino == there.st_ino && mine.st_dev == there.st_dev
    }

    /// The pid on the file's first line.
    private static func holder(_ fd: Int32) -> Int32? {
        contents(fd)?.split(separator: "\n").first.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The draft id a claim file's name spells in hex; nil for a name that is not one.
    private static func draftID(hexName: String) -> String? {
        guard !hexName.isEmpty, let bytes = Hex.decode(hexName, maxBytes: 1_024) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
