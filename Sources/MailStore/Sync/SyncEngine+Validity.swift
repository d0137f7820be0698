import EventLog
import EventModel
import IMAPClient
import IMAPProtocol
import MailParser
import Projections
import SyncCore
import Synchronization

extension SyncEngine {
    /// A folder's UIDVALIDITY changed (the mailbox was recreated or the server rebuilt its index): every
    /// old UID is retired. Copies still on the server are matched again by Message-ID and size and keep
    /// their email ids; unmatched old copies are expunged; unmatched server messages are left for the normal
    /// fetch. Returns the new state.
    ///
    /// Only what changed is recorded: `UIDValidityChanged` moves every copy of the folder to the new value (the sync
    /// view's fold), so a copy found at the same UID with the same flags needs no event, one at the same UID with
    /// other flags only its `FlagsChanged`, and one at another UID a new `EmailReceived` there (its email id kept).
    /// A server that changes UIDVALIDITY at every session (a server bug, ``validityFlaps(_:)``) costs two events a
    /// sync (the change and the checkpoint), not one per message (2,003 for 2,000 messages, at every sync and poll).
    func rematch(_ folder: MappedFolder, _ sel: SelectedMailbox, old: FolderSyncState, _ conn: IMAPConnection,
                 report: inout FolderSyncReport) throws -> FolderSyncState {
        let path = folder.path
        report.uidValidityChanged = true
        if try validityFlaps(path), SyncEngine.firstFlapWarning(store: store.directory.path, account: account.name, folder: path) {
            report.uidValidityFlapping = true
        }
        var events: [NewEvent] = [event(.uidValidityChanged(UIDValidityChanged(folder: path, oldValue: old.uidValidity,
                                                                                newValue: sel.uidValidity)),
                                        stream: folderStream(path),
                                        id: identity.eventID("UIDValidityChanged", account.name, path, "\(old.uidValidity)",
                                                             "\(sel.uidValidity)"))]
        var byKey: [String: [SyncedCopy]] = [:]
        for copy in try views.syncedCopies(account: account.name, folder: path).values.sorted(by: { $0.uid < $1.uid }) {
            guard let id = copy.messageID else { continue }
            byKey["\(id)\u{0}\(copy.size)", default: []].append(copy)
        }
        var claimed = Set<String>()
        let generation = try views.folderGeneration(account: account.name, folder: path)
        var highest: UInt32 = 0
        var onServer = 0
        do {
            if sel.exists > 0 { try conn.uidFetch(.all, [.uid, .flags, .rfc822Size, .body(.headerFields(["MESSAGE-ID"]), peek: true)]) { msg in
                guard let uid = msg.uid, let size = msg.size else { return }
                highest = max(highest, uid)
                onServer += 1
                guard let header = msg.section("HEADER.FIELDS (MESSAGE-ID)"),
                      let id = MailParser.parse(header).messageID,
                      var candidates = byKey["\(id)\u{0}\(size)"], !candidates.isEmpty else { return }
                let copy = candidates.removeFirst()
                byKey["\(id)\u{0}\(size)"] = candidates
                let flags = SyncEngine.normalized(msg.flags ?? [])
                // The flags to record the server's against: the copy's own when it stays at its UID (nothing else said
                // about it), else those of its first arrival, which its re-sent `EmailReceived` sets.
                let sent: [String]
                if copy.uid == uid {
                    sent = copy.flags
                } else {
                    guard let again = try self.received(again: copy, uid: uid, validity: sel.uidValidity, folder: path,
                                                        generation: generation) else { return }
                    events.append(again.event)
                    sent = again.flags
                }
                claimed.insert(copy.emailID)
                if Set(flags) != Set(sent) {
                    events.append(self.event(.flagsChanged(FlagsChanged(emailID: copy.emailID, folder: path, flags: flags,
                                                                        added: flags.filter { !sent.contains($0) },
                                                                        removed: sent.filter { !flags.contains($0) }.sorted(),
                                                                        modSeq: msg.modSeq)),
                                             stream: .email(copy.emailID)))
                }
                report.rematched += 1
            } }
        } catch let e as IMAPClientError { throw SyncError.server(e) }
        for copy in try views.syncedCopies(account: account.name, folder: path).values.sorted(by: { $0.uid < $1.uid })
        where !claimed.contains(copy.emailID) {
            events.append(expunged(copy, folder: path))
            report.expunged += 1
        }
        // Matching is done; whatever the server has beyond the matches is fetched as new mail (none: the pass is complete).
        let state = FolderSyncState(uidValidity: sel.uidValidity, highestUID: highest, uidNext: sel.uidNext,
                                    highestModSeq: sel.highestModSeq, lowestUIDFetched: onServer == claimed.count ? nil : FolderSyncState.fetchMark(above: highest))
        events.append(checkpoint(path, state))
        try store.commit(events)
        report.events += events.count
        return state
    }

    /// Whether the UIDVALIDITY of `path` changed before, recently: a `UIDValidityChanged` among the folder stream's last
    /// 64 events (with the fix, a flapping folder adds two a sync) recorded within the last 24 hours. A mailbox really
    /// recreated does that once; a server that changes the value at every session (a server bug) at every sync.
    ///
    /// The window compares the change's recorded time with the wall clock, so a clock that lies can only misjudge the
    /// warning: one recorded while the clock stood ahead (or a clock stepped back since) counts as recent, and says the
    /// warning for a folder recreated once (once a process); one stepped far ahead leaves a flapping server unnamed. No
    /// mail depends on it: the answer only sets ``FolderSyncReport/uidValidityFlapping``, and ``rematch(_:_:old:_:report:)``
    /// matches, records and expunges the same whatever it is (the ids that keep its events from doubling come from
    /// UIDVALIDITY values, UIDs and email ids, never times).
    func validityFlaps(_ path: String) throws -> Bool {
        let log = store.log
        let stream = folderStream(path)
        let head = try store.head().sequence
        guard head > 0 else { return false }
        let start = try log.startOfLast(64, from: 1, through: head, filter: ScanFilter(stream: stream))
        var last: Timestamp?
        try log.scan(from: start, filter: ScanFilter(types: [.uidValidityChanged], stream: stream)) { ev in
            last = ev.envelope.recordedAt
            return true
        }
        guard let last else { return false }
        return Timestamp.now.microseconds - last.microseconds < SyncEngine.flapWindowSeconds * 1_000_000
    }

    /// How recent an earlier UIDVALIDITY change must be for another to count as flapping: a day.
    static let flapWindowSeconds: Int64 = 24 * 3600

    /// The (store, account, folder) keys whose flapping UIDVALIDITY this process has warned of (a watch warns once).
    private static let flapWarned = Mutex<Set<String>>([])

    /// True the first time this process asks for (store, account, folder): the warning is said once per process.
    static func firstFlapWarning(store: String, account: String, folder: String) -> Bool {
        let key = store + "\u{0}" + account + "\u{0}" + folder
        return flapWarned.withLock { $0.insert(key).inserted }
    }

    /// The `EmailReceived` of a copy found again at a new UID: the original event with the new UID,
    /// its email id kept, and the flags it sets (those of the copy's first arrival, not its current ones);
    /// nil if the original cannot be read.
    func received(again copy: SyncedCopy, uid: UInt32, validity: UInt32, folder: String,
                  generation: Int) throws -> (event: NewEvent, flags: [String])? {
        guard let stored = try store.log.event(at: copy.sequence), case .emailReceived(var p) = try stored.decode() else { return nil }
        p.update {
            $0.uid = uid
            $0.uidValidity = validity
        }
        let event = NewEvent(id: identity.eventID("EmailReceived", account.name, folder,
                                                  SyncEngine.location(validity: validity, uid: uid, generation: generation)),
                             event: .emailReceived(p), account: account.name, stream: .email(copy.emailID),
                             occurredAt: stored.envelope.occurredAt, correlationID: correlation, actor: .sync)
        return (event, p.flags)
    }
}
