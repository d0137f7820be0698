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

    /// Fetches `uids` (newest first) in batches planned by count and by the sizes the server states,
    /// parses them on the worker threads and hands their events and blobs to `commit` with the lowest
    /// UID fetched so far and how many remain.
    ///
    /// The stated sizes are only a plan: the bytes actually received are what bound memory. Once a
    /// batch's bodies reach ``SyncOptions/batchBytes`` the messages so far are handed over at once,
    /// so a server that states RFC822.SIZE 0 and sends 64 MiB bodies never has more than a few
    /// batches' worth held (see docs/reliability.md). A UID sent twice is taken once.
    ///
    /// A message the server says is larger than the connection takes (`IMAPConnection.maxMessageBytes`, 64 MiB) is
    /// not fetched: its UID is returned, counted as done, so one such message does not stop the folder's sync and
    /// every folder after it at each sync (as mbsync's MaxSize skips). One that states a smaller size and sends more
    /// still ends the session (a broken or hostile server).
    @discardableResult
    func fetchNew(_ uids: [UInt32], folder: MappedFolder, validity: UInt32, _ conn: IMAPConnection,
                  commit: ([NewEvent], [PendingBlob], UInt32, Int) throws -> Void) throws -> [UInt32] {
        var sizes: [UInt32: UInt64] = [:]
        do {
            try conn.uidFetch(UIDSet(uids), [.uid, .rfc822Size]) { msg in
                if let uid = msg.uid, let size = msg.size { sizes[uid] = size }
            }
        } catch let e as IMAPClientError { throw SyncError.server(e) }
        let limit = UInt64(conn.maxMessageBytes)
        let tooLarge = uids.filter { (sizes[$0] ?? 0) > limit }
        let skipped = Set(tooLarge)
        let all = uids
        let uids = tooLarge.isEmpty ? uids : uids.filter { !skipped.contains($0) }
        var items: [FetchItem] = [.uid, .flags, .internalDate, .body(.entire, peek: true)]
        if provider.hasGmailExtensions && conn.has("X-GM-EXT-1") { items.append(.gmailThreadID) }
        var batches: [[UInt32]] = []
        var start = 0
        while start < uids.count {
            var end = start, bytes = 0
            while end < uids.count && end - start < options.batchMessages && (end == start || bytes < options.batchBytes) {
                bytes += Int(clamping: sizes[uids[end]] ?? 0)
                end += 1
            }
            batches.append(Array(uids[start..<end]))
            start = end
        }
        // The connection is used only by the reading thread until `finish()` returns.
        nonisolated(unsafe) let reader = conn
        let fetchItems = items
        let plan = batches
        let byteBound = max(1, options.batchBytes)
        let pipeline = FetchPipeline<FetchedChunk>(capacity: 2)
        let skippedChunk = FetchedChunk(messages: [], covered: tooLarge)
        pipeline.start { pipe in
            // Those too large to fetch are done first (nothing to parse; the checkpoint moves past them).
            if !skippedChunk.covered.isEmpty, !pipe.put(skippedChunk) { return }
            for batch in plan {
                var chunk = FetchedChunk(messages: [], covered: [])
                var bytes = 0
                var taken = Set<UInt32>()
                do {
                    try reader.uidFetch(UIDSet(batch), fetchItems) { msg in
                        guard let uid = msg.uid, let body = msg.body, taken.insert(uid).inserted else { return }
                        chunk.messages.append(Fetched(uid: uid, flags: SyncEngine.normalized(msg.flags ?? []),
                                                      internalDate: msg.internalDate, gmailThreadID: msg.gmailThreadID, body: body))
                        chunk.covered.append(uid)
                        bytes += body.count
                        guard bytes >= byteBound else { return }
                        guard pipe.put(chunk) else { throw FetchCancelled() }
                        chunk = FetchedChunk(messages: [], covered: [])
                        bytes = 0
                    }
                } catch is FetchCancelled {
                    return
                }
                chunk.covered.append(contentsOf: batch.filter { !taken.contains($0) })
                if chunk.covered.isEmpty { continue }
                guard pipe.put(chunk) else { return }
            }
        }
        defer { pipeline.finish() }
        var done = 0
        var lowest = UInt32.max
        progress?(folder.path, 0, all.count)
        while true {
            let chunk: FetchedChunk
            switch pipeline.take() {
            case .batch(let c): chunk = c
            case .failed(let e as IMAPClientError): throw SyncError.server(e)
            case .failed(let e): throw e
            case .end: return tooLarge
            }
            let results = try parse(chunk.messages, folder: folder.path, validity: validity)
            lowest = min(lowest, chunk.covered.min() ?? lowest)
            done += chunk.covered.count
            try commit(results.flatMap(\.events), results.map(\.blob), lowest, all.count - done)
            progress?(folder.path, done, all.count)
        }
    }

    /// Parses fetched messages on the worker threads, in order.
    func parse(_ fetched: [Fetched], folder: String, validity: UInt32) throws -> [MessageIngest.Result] {
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
                                                        validity: validity, correlation: correlation) }
            }
        }
        return try slots.map { try $0!.get() }
    }

    /// The `EmailReceived` of one server copy: id and email id derived from (account, folder, UIDVALIDITY, UID).
    static func ingest(_ m: Fetched, with ingest: MessageIngest, account: String, folder: String, validity: UInt32,
                       correlation: EventID) throws -> MessageIngest.Result {
        let date = m.internalDate.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        let source = SourceMessage(folder: folder, location: location(validity: validity, uid: m.uid), content: .bytes(m.body),
                                   flags: m.flags, fallbackDate: date, size: m.body.count)
        var result = try ingest.ingest(source, correlation: correlation, actor: .sync)
        if case .emailReceived(var p) = result.event.event {
            p.update {
                $0.uid = m.uid
                $0.uidValidity = validity
                $0.sourceLocation = nil
                $0.gmailThreadID = m.gmailThreadID  // the server's, never a header a sender wrote
                // When the server received it (INTERNALDATE): what notifications age and order mail by, which a
                // sender's Date header cannot move (`Timestamp(_:)` bounds a hostile value).
                $0.receivedAt = date.map { Timestamp($0) }
            }
            result.event.event = .emailReceived(p)
        }
        return result
    }

    /// The natural key of a server copy within its folder.
    static func location(validity: UInt32, uid: UInt32) -> String { "imap:\(validity):\(uid)" }
}
