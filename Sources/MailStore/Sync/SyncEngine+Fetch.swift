import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import SyncCore

extension SyncEngine {
    /// One fetched message, before parsing.
    struct Fetched {
        var uid: UInt32
        var flags: [String]
        var internalDate: Int64?
        var gmailThreadID: UInt64?
        var gmailMessageID: UInt64?
        var body: [UInt8]
    }

    /// Fetched messages handed from the reading thread to the committing one, and the UIDs they
    /// account for (those asked for and not sent count too, once their command has completed).
    struct FetchedChunk: Sendable {
        var messages: [Fetched]
        var covered: [UInt32]
    }

    /// The reading thread stops because the committing side has gone.
    struct FetchCancelled: Error {}

    /// The sizes the server states for `uids` (RFC822.SIZE): what ``fetchNew(_:sizes:folder:validity:generation:_:commit:)`` plans
    /// its batches by, and how a message over the limit (`IMAPConnection.maxMessageBytes`, 64 MiB) is told before it is
    /// fetched: such a one is not fetched, so it does not stop the folder's sync and every folder after it at each sync
    /// (as mbsync's MaxSize skips). A UID the server does not answer for has no size. Nothing asked for none.
    func statedSizes(_ uids: [UInt32], _ conn: IMAPConnection) throws -> [UInt32: UInt64] {
        guard !uids.isEmpty else { return [:] }
        var sizes: [UInt32: UInt64] = [:]
        do {
            try conn.uidFetch(UIDSet(uids), [.uid, .rfc822Size]) { msg in
                if let uid = msg.uid, let size = msg.size { sizes[uid] = size }
            }
        } catch let e as IMAPClientError { throw SyncError.server(e) }
        return sizes
    }

    /// Fetches `uids` (newest first) in batches planned by count and by `sizes` (as the server states them,
    /// ``statedSizes(_:_:)``), parses them on the worker threads and hands their events and blobs to `commit` with the
    /// lowest UID fetched so far, how many remain, the UIDs found unfetchable so far in this call and the UIDs the
    /// events account for (those asked for and not sent count too, once their command has completed).
    ///
    /// The stated sizes are only a plan: the bytes actually received are what bound memory. Once a
    /// batch's bodies reach ``SyncOptions/batchBytes`` the messages so far are handed over at once,
    /// so a server that states RFC822.SIZE 0 and sends 64 MiB bodies never has more than a few
    /// batches' worth held (see docs/reliability.md). A UID sent twice is taken once.
    ///
    /// A batch the server fails to deliver (a literal shorter than it stated and then silence, as Dovecot's "cached
    /// message size mismatch", a protocol error, a NO) does not lose the messages that arrived whole before the
    /// failure: they are committed, and the rest is isolated (``isolate(_:)``: the first message not delivered alone,
    /// the others in halves), on a new connection when the old one is unusable (the folder selected again; a changed
    /// UIDVALIDITY ends the fetch, the next sync re-matches). A UID that fails alone twice is given up for this
    /// UIDVALIDITY (``FetchOutcome/unfetchable``, recorded in the folder's checkpoint). Bounds: at most
    /// ``maxFetchFailures`` failed fetch commands a call, each followed by at most one reconnect; then the last
    /// failure is thrown (what arrived is committed, and the UIDs given up are recorded, so the next sync goes on).
    ///
    /// Gmail: a copy whose message the store holds already under another label (``storedCopies(_:_:)``: found by its
    /// X-GM-MSGID) is not fetched: its bytes are read from the stored blob, in batches bounded as the fetched ones
    /// are, and recorded as a fetched copy would be (the same ids, flags and dates from the server). One whose blob
    /// cannot be read is fetched. The lookup goes ``storedCopySlice`` UIDs at a time.
    @discardableResult
    func fetchNew(_ uids: [UInt32], sizes: [UInt32: UInt64], folder: MappedFolder, validity: UInt32, generation: Int,
                  _ conn: IMAPConnection,
                  commit: ([NewEvent], [PendingBlob], UInt32, Int, [UInt32], [UInt32]) throws -> Void) throws -> FetchOutcome {
        let gmail = provider.hasGmailExtensions && conn.has("X-GM-EXT-1")
        var items: [FetchItem] = [.uid, .flags, .internalDate, .body(.entire, peek: true)]
        if gmail { items += [.gmailThreadID, .gmailMessageID] }
        var outcome = FetchOutcome()
        var done = 0
        var lowest = UInt32.max
        progress?(folder.path, 0, uids.count)
        // A server refusing the lookup's fetch has every copy fetched whole, as before. The lookup goes a slice of
        // `storedCopySlice` UIDs at a time, its copies read and committed before the next: what it holds is bounded by
        // the slice, not by the folder (a first sync of a 1M-message All Mail).
        var fetching: [UInt32] = []
        var lookup = gmail
        if !lookup { fetching = uids }
        var sliceStart = 0
        while lookup && sliceStart < uids.count {
            let slice = Array(uids[sliceStart..<min(uids.count, sliceStart + storedCopySlice)])
            sliceStart += slice.count
            let stored: [UInt32: StoredCopy]
            do { stored = try storedCopies(slice, conn) } catch where SyncEngine.isFolderRefusal(error) {
                lookup = false
                fetching += uids[(sliceStart - slice.count)...]
                break
            }
            // Read from the store, in batches of at most `batchMessages` messages and `batchBytes` bytes.
            var chunk: [Fetched] = []
            var bytes = 0
            func take() throws {
                let results = try parse(chunk, folder: folder.path, validity: validity, generation: generation)
                lowest = min(lowest, chunk.map(\.uid).min() ?? lowest)
                done += chunk.count
                // The blobs are stored: only the events.
                try commit(results.flatMap(\.events), [], lowest, uids.count - done, outcome.unfetchable, chunk.map(\.uid))
                progress?(folder.path, done, uids.count)
                chunk.removeAll()
                bytes = 0
            }
            for uid in slice {
                // Not stored, or its blob unreadable: fetched whole.
                guard let s = stored[uid], let body = try store.blob(s.blob) else {
                    fetching.append(uid)
                    continue
                }
                chunk.append(Fetched(uid: uid, flags: s.flags, internalDate: s.internalDate, gmailThreadID: s.gmailThreadID,
                                     gmailMessageID: s.gmailMessageID, body: body))
                bytes += body.count
                if chunk.count >= options.batchMessages || bytes >= options.batchBytes { try take() }
            }
            if !chunk.isEmpty { try take() }
        }
        var plan: [[UInt32]] = []
        var start = 0
        while start < fetching.count {
            var end = start, bytes = 0
            while end < fetching.count && end - start < options.batchMessages && (end == start || bytes < options.batchBytes) {
                bytes += Int(clamping: sizes[fetching[end]] ?? 0)
                end += 1
            }
            plan.append(Array(fetching[start..<end]))
            start = end
        }
        if plan.isEmpty { return outcome }
        var conn = conn
        var failures = 0
        var aloneFailures: [UInt32: Int] = [:]
        while true {
            let failed = try fetchRound(plan, items: items, conn) { chunk in
                let results = try parse(chunk.messages, folder: folder.path, validity: validity, generation: generation)
                lowest = min(lowest, chunk.covered.min() ?? lowest)
                done += chunk.covered.count
                try commit(results.flatMap(\.events), results.map(\.blob), lowest, uids.count - done, outcome.unfetchable, chunk.covered)
                progress?(folder.path, done, uids.count)
            }
            guard let failed else { return outcome }
            failures += 1
            guard failures < SyncEngine.maxFetchFailures else { throw SyncError.server(failed.error) }
            plan.removeFirst(failed.index + 1)
            if failed.batch.count == 1, let uid = failed.batch.first, !SyncEngine.isMessagesOwnFailure(failed.error) {
                // A lost connection or a slow link: nothing against the message; fetched alone again (the failures
                // above bound the tries, and the sync fails as before when they run out).
                plan.insert([uid], at: 0)
            } else if failed.batch.count == 1, let uid = failed.batch.first {
                aloneFailures[uid, default: 0] += 1
                if aloneFailures[uid, default: 0] >= SyncEngine.aloneFailuresToGiveUp {
                    // Given up: counted as done and recorded with the next checkpoint (committed now).
                    outcome.unfetchable.append(uid)
                    lowest = min(lowest, uid)
                    done += 1
                    try commit([], [], lowest, uids.count - done, outcome.unfetchable, [uid])
                    progress?(folder.path, done, uids.count)
                } else {
                    plan.insert([uid], at: 0)
                }
            } else {
                plan.insert(contentsOf: SyncEngine.isolate(failed), at: 0)
            }
            if plan.isEmpty { return outcome }
            if !conn.isUsable {
                // The connection is gone with the command (a timeout mid-literal leaves it unusable): a new one, the
                // folder selected again. Under another UIDVALIDITY the UIDs planned mean nothing: the next sync re-matches.
                disconnect()
                conn = try connect()
                let sel: SelectedMailbox
                do { sel = try conn.select(folder.mailbox, readOnly: true, condstore: conn.has("CONDSTORE")) } catch { throw SyncError.server(error) }
                guard sel.uidValidity == validity else { return outcome }
            }
        }
    }

    /// At most this many fetch commands of one ``fetchNew(_:sizes:folder:validity:generation:_:commit:)`` call may fail (each
    /// costs up to the command's deadline and a reconnect): one message that cannot be delivered costs three (its
    /// batch, then twice alone).
    static let maxFetchFailures = 12

    /// Whether a fetch's failure is the message's own, which counts toward giving its UID up: the server stopped
    /// sending it mid-literal (no progress within the read timeout), answered it malformed or over the limits, or
    /// refused it. A lost connection or a command deadline passed while bytes still came (a slow link, a big message)
    /// says nothing of the message and never gives it up: a longer `--timeout` or a better network fetches it.
    static func isMessagesOwnFailure(_ error: IMAPClientError) -> Bool {
        switch error {
        case .transport(.timeout): true
        case .transport, .deadlinePassed: false
        default: true
        }
    }

    /// A UID whose fetch alone fails this many times (in one sync) is given up for its UIDVALIDITY.
    static let aloneFailuresToGiveUp = 2

    /// The batches that fetch what `failed` did not deliver: first the message the server was sending when it failed,
    /// alone (servers send in UID order: the lowest UID above those that arrived, else the lowest), then the others in
    /// two halves, in the batch's order. A half that fails is isolated again the same way.
    static func isolate(_ failed: BatchFailed) -> [[UInt32]] {
        let rest = failed.batch.filter { !failed.arrived.contains($0) }
        guard !rest.isEmpty else { return [] }
        let above = failed.arrived.max().map { top in rest.filter { $0 > top } } ?? []
        let suspect = (above.isEmpty ? rest : above).min() ?? rest[0]
        let others = rest.filter { $0 != suspect }
        let half = (others.count + 1) / 2
        return [[suspect]] + [Array(others.prefix(half)), Array(others.dropFirst(half))].filter { !$0.isEmpty }
    }

    /// One round of fetches: `plan`'s batches in order, read on `conn` by the pipeline's thread, each chunk handed to
    /// `take` on this one. The first batch the server fails to deliver
    /// ends the round and is returned, the messages of it that arrived whole handed over before; nil: all were fetched.
    func fetchRound(_ plan: [[UInt32]], items: [FetchItem], _ conn: IMAPConnection,
                    take: (FetchedChunk) throws -> Void) throws -> BatchFailed? {
        // The connection is used only by the reading thread until `finish()` returns.
        nonisolated(unsafe) let reader = conn
        let byteBound = max(1, options.batchBytes)
        let pipeline = FetchPipeline<FetchedChunk>(capacity: 2)
        pipeline.start { pipe in
            for (index, batch) in plan.enumerated() {
                var chunk = FetchedChunk(messages: [], covered: [])
                var bytes = 0
                var taken = Set<UInt32>()
                do {
                    try reader.uidFetch(UIDSet(batch), items) { msg in
                        guard let uid = msg.uid, let body = msg.body, taken.insert(uid).inserted else { return }
                        chunk.messages.append(Fetched(uid: uid, flags: SyncEngine.normalized(msg.flags ?? []),
                                                      internalDate: msg.internalDate, gmailThreadID: msg.gmailThreadID,
                                                      gmailMessageID: msg.gmailMessageID, body: body))
                        chunk.covered.append(uid)
                        bytes += body.count
                        guard bytes >= byteBound else { return }
                        guard pipe.put(chunk) else { throw FetchCancelled() }
                        chunk = FetchedChunk(messages: [], covered: [])
                        bytes = 0
                    }
                } catch is FetchCancelled {
                    return
                } catch let e as IMAPClientError {
                    // The messages that arrived whole are stored (each complete and parsed); the rest is the caller's.
                    if !chunk.covered.isEmpty, !pipe.put(chunk) { return }
                    throw BatchFailed(error: e, index: index, batch: batch, arrived: taken)
                }
                chunk.covered.append(contentsOf: batch.filter { !taken.contains($0) })
                if chunk.covered.isEmpty { continue }
                guard pipe.put(chunk) else { return }
            }
        }
        defer { pipeline.finish() }
        while true {
            switch pipeline.take() {
            case .batch(let c): try take(c)
            case .failed(let f as BatchFailed): return f
            case .failed(let e as IMAPClientError): throw SyncError.server(e)
            case .failed(let e): throw e
            case .end: return nil
            }
        }
    }

    /// Parses fetched messages on the worker threads, in order.
    func parse(_ fetched: [Fetched], folder: String, validity: UInt32, generation: Int) throws -> [MessageIngest.Result] {
        if !dictionaryDecided {
            // The account's first batch big enough trains its blob dictionary (the workers are idle here).
            dictionaryDecided = try MessageIngest.trainDictionary(store.log, account: account.name, count: fetched.count,
                                                                  message: { fetched[$0].body }, into: workers)
        }
        try refreshCategorizer()
        nonisolated(unsafe) var slots = [Result<MessageIngest.Result, Error>?](repeating: nil, count: fetched.count)
        nonisolated(unsafe) let ingests = workers
        let account = self.account.name
        let correlation = self.correlation
        slots.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            ParallelWork.forEach(count: fetched.count, workers: ingests.count) { w, i in
                out[i] = Result { try SyncEngine.ingest(fetched[i], with: ingests[w], account: account, folder: folder,
                                                        validity: validity, generation: generation, correlation: correlation) }
            }
        }
        return try slots.map { try $0!.get() }
    }

    /// The `EmailReceived` of one server copy: id and email id derived from (account, folder, UIDVALIDITY, UID) and the
    /// folder's generation (``location(validity:uid:generation:)``).
    static func ingest(_ m: Fetched, with ingest: MessageIngest, account: String, folder: String, validity: UInt32,
                       generation: Int, correlation: EventID) throws -> MessageIngest.Result {
        let date = m.internalDate.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        let source = SourceMessage(folder: folder, location: location(validity: validity, uid: m.uid, generation: generation),
                                   content: .bytes(m.body),
                                   flags: m.flags, fallbackDate: date, size: m.body.count)
        var result = try ingest.ingest(source, correlation: correlation, actor: .sync)
        if case .emailReceived(var p) = result.event.event {
            p.update {
                $0.uid = m.uid
                $0.uidValidity = validity
                $0.sourceLocation = nil
                $0.gmailThreadID = m.gmailThreadID  // the server's, never a header a sender wrote
                $0.gmailMessageID = m.gmailMessageID
                // When the server received it (INTERNALDATE): what notifications age and order mail by, which a
                // sender's Date header cannot move (`Timestamp(_:)` bounds a hostile value).
                $0.receivedAt = date.map { Timestamp($0) }
            }
            result.event.event = .emailReceived(p)
        }
        return result
    }

    /// The natural key of a server copy within its folder: `imap:UIDVALIDITY:UID`, and `:gN` after it in the folder's
    /// generation N > 0 (the folder recorded removed N times, `ViewStore.folderGeneration(account:folder:)`). A folder that
    /// comes back under a name and UIDVALIDITY seen before (Dovecot keeps UIDVALIDITY across RENAME: renamed away and
    /// back, an ACL's lookup right taken and given back) has the same UIDs as its mail recorded gone: without the
    /// generation the ids were the same, the log took the mail for what it had (duplicates, appended once) and the
    /// folder stayed empty for good. A folder never removed keeps the ids it always had; a retried batch (the same
    /// generation: no removal between) appends nothing again.
    static func location(validity: UInt32, uid: UInt32, generation: Int) -> String {
        generation > 0 ? "imap:\(validity):\(uid):g\(generation)" : "imap:\(validity):\(uid)"
    }
}
