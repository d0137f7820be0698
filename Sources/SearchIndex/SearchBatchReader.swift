import EventLog
import EventModel
import NativeCodecs

/// Reads what a batch of events needs from the log (decoded payloads, raw messages) and builds the documents.
/// Pure but for its log reads: it may run on any thread, one batch at a time per reader.
final class SearchBatchReader {
    private let log: EventLog
    // One decompression context and hasher for every blob of the run.
    private let zstd: Zstd
    private let hasher: SHA256Hasher
    private let digest: SearchTextDigest

    init(log: EventLog) throws {
        self.log = log
        zstd = try Zstd()
        hasher = try SHA256Hasher()
        digest = try SearchTextDigest()
    }

    /// Decodes `events`, reads each `EmailReceived`'s raw message and builds its document, its text digested.
    func prepare(_ events: [StoredEvent], through last: UInt64) throws -> PreparedSearchBatch {
        var out = PreparedSearchBatch(events: events, last: last)
        out.decoded.reserveCapacity(events.count)
        var blobs = 0
        for (i, ev) in events.enumerated() {
            // An event that does not decode is skipped, not fatal: a rebuild or catch-up never sticks on it.
            let d = try? ev.decode()
            if case .emailReceived(let p)? = d {
                let raw = try log.blob(p.blob, zstd: zstd, hasher: hasher)
                blobs += 1
                // Each blob read maps its pages (and their cached neighbourhood where fault-around is on): the
                // pages read so far go every `releaseInterval` blobs, so they never pile up in the resident size.
                if blobs % SearchIndex.releaseInterval == 0 { releasePages() }
                var doc = SearchDocument(p, account: ev.envelope.account, raw: raw)
                // Digested here, on the reading thread of a rebuild, rather than by the writer.
                doc.textDigest = digest(doc.textColumns)
                out.documents[i] = doc
            }
            out.decoded.append(d)
        }
        // The records a full batch read stay in the page cache, not in this process's resident size (a small
        // catch-up skips it: finding the map costs more than it does).
        if events.count >= SearchIndex.batchSize { releasePages() }
        return out
    }

    private func releasePages() {
        log.environment.releaseResidentPages(over: type(of: log.environment).residentFileBudget)
    }
}
