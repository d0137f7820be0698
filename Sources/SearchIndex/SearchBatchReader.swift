import EventLog
import EventModel
import NativeCodecs

/// Reads what a batch of events needs from the log (decoded payloads, raw messages) and builds the documents, one
/// event at a time (`add`), until the batch is full (`isFull`): `SearchIndex.batchSize` events, or
/// `SearchIndex.batchBytes` of what it holds (`heldBytes`), whichever comes first. A count alone let a batch of
/// messages naming 1,000 recipients each hold ~32 MB (its payloads, their decoded addresses and the documents'
/// address columns), three or four such batches alive at once in a rebuild.
/// Pure but for its log reads: it may run on any thread, one batch at a time per reader.
final class SearchBatchReader {
    private let log: EventLog
    // One decompression context and hasher for every blob of the run.
    private let zstd: Zstd
    private let hasher: SHA256Hasher
    private let digest: SearchTextDigest
    /// The batch being made.
    private var batch = PreparedSearchBatch()
    /// What the batch being made holds, in bytes as `heldBytes(payload:document:)` counts them.
    private(set) var heldBytes = 0
    /// Blobs read since the map's pages were last checked against the budget.
    private var blobsSinceRelease = 0
    /// What a batch may hold before it is full: `SearchIndex.batchBytes`, or less set by a test.
    let batchBytes: Int

    /// Bytes a decoded payload is counted for, per byte of its encoding: its strings and arrays as Swift holds them
    /// (an address of ~20 encoded bytes is an `EmailAddress` of two strings, ~50 bytes, plus its array's slot).
    static let decodedBytesPerPayloadByte = 3
    /// A blob this big (the raw message's bytes) has its pages unmapped as soon as it is read
    /// (`releaseResidentPages()`): each of its pages was read once, for this document, and would otherwise stay in
    /// the resident size until the next check (`SearchIndex.releaseInterval` blobs on): six 60 MB messages kept
    /// ~120 MB of their compressed pages mapped. Memory: at most one such blob's stored pages at a time.
    static let bigBlobBytes = 4 << 20

    init(log: EventLog, batchBytes: Int = SearchIndex.batchBytes) throws {
        self.log = log
        self.batchBytes = batchBytes
        zstd = try Zstd()
        hasher = try SHA256Hasher()
        digest = try SearchTextDigest()
    }

    /// The events added since the batch was last taken.
    var count: Int { batch.events.count }

    /// Whether the batch is full: `SearchIndex.batchSize` events, or at least `batchBytes` held.
    var isFull: Bool { batch.events.count >= SearchIndex.batchSize || heldBytes >= batchBytes }

    /// The bytes an event is counted for while its batch is in flight: its payload, encoded and decoded
    /// (`decodedBytesPerPayloadByte`), and its document's text and filter strings (nil: it has none).
    static func heldBytes(payload: Int, document: SearchDocument?) -> Int {
        payload * (1 + decodedBytesPerPayloadByte) + (document?.heldBytes ?? 0)
    }

    /// Decodes `ev`, reads its raw message if it is an `EmailReceived` and builds its document, its text digested,
    /// into the batch being made. A raw message that does not read (a damaged blob) leaves the document without its
    /// body, listed in the batch's `unreadBodies`.
    func add(_ ev: StoredEvent) throws {
        // An event that does not decode is skipped, not fatal: a rebuild or catch-up never sticks on it.
        let d = try? ev.decode()
        var document: SearchDocument?
        if case .emailReceived(let p)? = d {
            // A damaged blob costs its message's body, not the run: the document holds what the event carries (headers, snippet), and
            // the writer names the email (`SearchIndex.noteUnreadBody`). Failing here had stopped every rebuild for good.
            let raw: [UInt8]?
            do {
                raw = try log.blob(p.blob, zstd: zstd, hasher: hasher)
            } catch let error as EventLogError where error.isCorruptBlob {
                raw = nil
                batch.unreadBodies.append(UnreadBody(emailID: p.emailID, sequence: ev.envelope.sequence, reason: "\(error)"))
            }
            blobsSinceRelease += 1
            // Each blob read maps its pages (and their cached neighbourhood where fault-around is on): the pages read
            // so far go every `releaseInterval` blobs, so they never pile up in the resident size; a big blob's at once.
            if (raw?.count ?? 0) >= SearchBatchReader.bigBlobBytes {
                log.environment.releaseResidentPages()
                blobsSinceRelease = 0
            } else if blobsSinceRelease >= SearchIndex.releaseInterval {
                releasePages()
                blobsSinceRelease = 0
            }
            var doc = SearchDocument(p, account: ev.envelope.account, raw: raw)
            // Digested here, on the reading thread of a rebuild, rather than by the writer.
            doc.textDigest = digest(doc.textColumns)
            document = doc
            batch.documents[batch.events.count] = doc
        }
        batch.events.append(ev)
        batch.decoded.append(d)
        heldBytes += Self.heldBytes(payload: ev.payload.count, document: document)
    }

    /// The batch made since the last one, with the checkpoint `last`; the reader starts an empty one.
    func take(through last: UInt64) -> PreparedSearchBatch {
        // The records a full batch read stay in the page cache, not in this process's resident size (a small
        // catch-up skips it: finding the map costs more than it does).
        if isFull { releasePages() }
        var out = batch
        out.last = last
        out.link = try? log.chainHash(at: last)
        out.heldBytes = heldBytes
        batch = PreparedSearchBatch()
        batch.events.reserveCapacity(min(SearchIndex.batchSize, out.events.count))
        batch.decoded.reserveCapacity(min(SearchIndex.batchSize, out.events.count))
        heldBytes = 0
        return out
    }

    private func releasePages() {
        log.environment.releaseResidentPages(over: type(of: log.environment).residentFileBudget)
    }
}
