import Categorizer
import EventLog
import EventModel
import Foundation
import MailParser

/// Turns one source message into its `EmailReceived` event and blob: read, parse, hash, compress.
/// One per worker thread (it owns a hasher and a zstd context).
final class MessageIngest {
    /// The outcome for one message.
    struct Result {
        /// Its events: `EmailReceived`, then `EmailCategorized` when there is one.
        var events: [NewEvent] { categorized.map { [event, $0] } ?? [event] }
        var event: NewEvent
        /// Its `EmailCategorized`, when a categorizer is set.
        var categorized: NewEvent?
        var blob: PendingBlob
        var warnings: [ParseWarning]
        var bytes: Int
    }

    private let encoder: BlobEncoder
    private let identity: Identity
    let account: String
    /// Categorizes each message as it is parsed (all its header fields at hand); nil: no categorizing. Replaced
    /// only while no ingest runs (a sync's learned sender rules kept current, ``SyncEngine/refreshCategorizer()``).
    var categorizer: Categorizer?
    /// The account's blob dictionary, when it has one (set only while no ingest runs).
    var dictionary: BlobDictionary?
    /// True: a message's `EmailCategorized` id begins with its `EmailReceived` id's first 8 bytes
    /// (`categorizedID(beside:_:)`), so the id index holds the two in one leaf (an import's). False: derived on its own,
    /// as sync derives it.
    let categorizedBesideReceived: Bool

    init(account: String, categorizer: Categorizer? = nil, dictionary: BlobDictionary? = nil,
         categorizedBesideReceived: Bool = false) throws {
        self.account = account
        self.categorizer = categorizer
        self.dictionary = dictionary
        self.categorizedBesideReceived = categorizedBesideReceived
        // zstd level 1: about twice as fast as level 3 on mail, for a few percent of size.
        encoder = try BlobEncoder(level: 1)
        identity = try Identity()
    }

    /// The event id of the message at `location` in `folder`: the import's idempotency key.
    func eventID(folder: String, location: String) -> EventID {
        MessageIngest.eventID(identity, account: account, folder: folder, location: location)
    }

    /// The same, with the caller's own `identity` (an `Identity` is not thread-safe).
    static func eventID(_ identity: Identity, account: String, folder: String, location: String) -> EventID {
        identity.eventID("EmailReceived", account, folder, location)
    }

    /// The id of an import's `EmailCategorized` of the message whose `EmailReceived` has id `received`: that id's high
    /// 64 bits (so the two sort next to each other and the id index puts both in one leaf) and the low 64 bits of
    /// `own`, the id derived for it on its own. Both halves derive from the message's natural key, so importing it
    /// again gives the same id. Ids are keyed at random over the index: at a million messages a chunk's two ids a
    /// message each had landed in a leaf of their own, the copy of a 4 KiB page written per id and commit.
    static func categorizedID(beside received: EventID, _ own: EventID) -> EventID {
        EventID(high: received.high, low: own.low)
    }

    /// Trains `account`'s blob dictionary on the start of each of `count` messages (`message(i)`; nil skips
    /// one), within `BlobDictionary`'s sample bounds, and hands it to `ingests`, which must be idle. Returns
    /// false when the messages were too few or too small to try (a later, bigger batch may).
    static func trainDictionary(_ log: EventLog, account: String, count: Int, message: (Int) -> [UInt8]?,
                                into ingests: [MessageIngest]) throws -> Bool {
        var samples: [[UInt8]] = []
        var total = 0
        for i in 0..<count where samples.count < BlobDictionary.maxSamples && total < BlobDictionary.maxSampleBytes {
            guard let bytes = message(i) else { continue }
            let sample = Array(bytes.prefix(min(sampleBytesPerMessage, BlobDictionary.maxSampleBytes - total)))
            total += sample.count
            samples.append(sample)
        }
        guard samples.count >= BlobDictionary.minSamples, total >= BlobDictionary.minSampleBytes else { return false }
        if let dictionary = try log.trainBlobDictionary(account: account, samples: samples) {
            for w in ingests { w.dictionary = dictionary }
        }
        return true
    }

    /// The most bytes of one message in a dictionary's sample: the headers and text, not whole attachments.
    static let sampleBytesPerMessage = 32 << 10

    /// The bytes of `message` (read from its file when it is one).
    static func bytes(of message: SourceMessage) throws -> [UInt8] {
        switch message.content {
        case .bytes(let b): return b
        case .file(let path): return try MessageIngest.readFile(path, listed: message.size)
        case .opened(let file, let path): return try MessageIngest.readListed(file.fd, path: path, listed: message.size)
        }
    }

    /// Reads and parses `message`. Throws only when its bytes cannot be read at all.
    func ingest(_ message: SourceMessage, correlation: EventID, actor: Actor = .system) throws -> Result {
        return try MessageIngest.bytes(of: message).withUnsafeBytes { raw in
            let parsed = MailParser.parse(raw, fallbackDate: message.fallbackDate, now: Date())
            let blob = try encoder.prepare(raw, dictionary: dictionary, hash: message.contentHash)
            let emailID = identity.emailID(account: account, folder: message.folder, location: message.identityKey)
            let date = parsed.date ?? message.fallbackDate ?? Date()
            let source: EventModel.DateSource = switch parsed.dateSource {
            case .header: .header
            case .received: .received
            case .fallback: .fallback
            // (A date in the future is replaced by the time stored with `none`: it stays `none`, fallback or not.)
            case .none: parsed.date == nil && message.fallbackDate != nil ? .fallback : .none
            }
            let payload = EmailReceived(
                emailID: emailID, folder: message.folder, sourceLocation: message.location,
                messageID: parsed.messageID, inReplyTo: parsed.inReplyTo, references: parsed.references,
                gmailThreadID: parsed.gmailThreadID, subject: parsed.subject ?? "",
                from: parsed.from.map(MessageIngest.address), to: parsed.to.map(MessageIngest.address),
                cc: parsed.cc.map(MessageIngest.address), bcc: parsed.bcc.map(MessageIngest.address),
                replyTo: parsed.replyTo.map(MessageIngest.address), date: Timestamp(date), dateSource: source,
                flags: message.mboxStatus
                    ? MboxStatus.flags(status: parsed.header("Status"), xStatus: parsed.header("X-Status")) : message.flags,
                snippet: parsed.snippet,
                attachments: parsed.attachments.map {
                    AttachmentInfo(filename: $0.filename, mimeType: $0.mimeType, size: UInt64(max(0, $0.size)), isInline: $0.isInline)
                },
                size: UInt64(raw.count), blob: blob.hash, listID: parsed.listID,
                warnings: parsed.warnings.map { "\($0.code.rawValue): \($0.detail)" })
            let event = NewEvent(id: eventID(folder: message.folder, location: message.identityKey),
                                 event: .emailReceived(payload), account: account, stream: .email(emailID),
                                 occurredAt: Timestamp(date), correlationID: correlation, actor: actor)
            let categorized = categorizer.map { c in
                let own = identity.eventID("EmailCategorized", account, message.folder, message.identityKey)
                return MessageIngest.categorized(c.categorize(MessageSignals(parsed)), emailID: emailID, event: event,
                                                 id: categorizedBesideReceived ? MessageIngest.categorizedID(beside: event.id, own) : own)
            }
            return Result(event: event, categorized: categorized, blob: blob, warnings: parsed.warnings, bytes: raw.count)
        }
    }

    /// The `EmailCategorized` of `emailID` for `result`, beside its `EmailReceived` (same stream, account and
    /// correlation, caused by it).
    static func categorized(_ result: Categorization, emailID: String, event: NewEvent, id: EventID) -> NewEvent {
        let payload = EmailCategorized(emailID: emailID, category: result.category, classifier: Categorizer.name,
                                       classifierVersion: Categorizer.version, rule: result.explanation)
        return NewEvent(id: id, event: .emailCategorized(payload), account: event.account, stream: event.stream,
                        occurredAt: event.occurredAt, causationID: event.id, correlationID: event.correlationID,
                        actor: event.actor)
    }

    static func address(_ a: MailAddress) -> EmailAddress {
        EmailAddress(name: (a.name?.isEmpty ?? true) ? nil : a.name, email: a.email)
    }

    /// Reads a whole file with POSIX calls (non-blocking and no controlling terminal: a name that is a FIFO or a
    /// device now is refused, not waited on). `listed`: its size when it was listed (see `read`).
    static func readFile(_ path: String, listed: Int? = nil) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw ImportError.unreadable(path, String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(fd, path: path, listed: listed)
    }

    /// Reads the whole regular file open at `fd`, which its listing looked at through that descriptor (a regular file
    /// of `listed` bytes then; a descriptor's file does not change type): no `fstat` again. One `pread` asks for a byte
    /// more than was listed, so a file grown since shows itself in the same call and is refused, as `read` refuses it;
    /// a read that stops at the listed size is the file's end (Linux reads a regular file short only there), and a
    /// shorter file gives what it has. The buffer holds at most `listed + 1` bytes.
    static func readListed(_ fd: Int32, path: String, listed: Int) throws -> [UInt8] {
        let out = try readFromStart(fd, path: path, capacity: listed + 1, endingAt: listed)
        if out.count > listed {
            var st = stat()
            let now = fstat(fd, &st) == 0 ? "\(st.st_size)" : "more"
            throw ImportError.unreadable(path, "it grew from \(listed) to \(now) bytes since it was listed; import again to take it as it is now")
        }
        return out
    }

    /// Reads the whole file open at `fd` from its start (`pread`: the offset of a descriptor its listing handed on is
    /// not trusted), `path` naming it in errors. Anything but a regular file is refused: a name that became a FIFO or a
    /// device since it was listed is not read. With `listed` (its size when the listing looked at it, which the
    /// message size limit was checked against), a file grown since is refused rather than read whole: the read's
    /// buffer is bounded by what was checked (a Maildir's message files are written once, in `tmp/`, and then only
    /// renamed; a shorter one gives what it has).
    static func read(_ fd: Int32, path: String, listed: Int? = nil) throws -> [UInt8] {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ImportError.unreadable(path, String(cString: strerror(errno))) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw ImportError.unreadable(path, "not a regular file") }
        if let listed, st.st_size > listed {
            throw ImportError.unreadable(path, "it grew from \(listed) to \(st.st_size) bytes since it was listed; import again to take it as it is now")
        }
        let size = Int(st.st_size)
        guard size > 0 else { return [] }
        return try readFromStart(fd, path: path, capacity: size, endingAt: size)
    }

    /// Up to `capacity` bytes of the regular file open at `fd`, read from its start with `pread` into uninitialised
    /// memory (not zeroed first): until `capacity`, the file's end, or a read that stops short at `end` bytes (Linux
    /// reads a regular file short only at its end). A file shorter than expected gives what it has.
    private static func readFromStart(_ fd: Int32, path: String, capacity: Int, endingAt end: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: capacity) { buf, count in
            var done = 0
            while done < capacity {
                let n = pread(fd, buf.baseAddress! + done, capacity - done, off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
                if done == end { break }
            }
            count = done
        }
        if failure != 0 { throw ImportError.unreadable(path, String(cString: strerror(failure))) }
        return out
    }
}
