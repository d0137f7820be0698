import EventLog
import EventModel
import Foundation
import SecureTransport
import MailParser
import NativeCodecs

/// Imports Maildir trees and mbox files into the log as `FolderDiscovered` and `EmailReceived` events,
/// raw messages into the blob store. Idempotent: a message's event id derives from its account, folder
/// and natural key (`SourceMessage.identityKey`: a Maildir file's unique name, an mbox message's bytes), so importing
/// the same source again appends nothing.
///
/// Messages are read, parsed, hashed and compressed on all cores, then appended in batches of a few
/// hundred (one transaction each). Bad mail never stops an import: it is imported as well as it can be,
/// with its parser warnings in the event and the summary.
public final class Importer {
    /// Import settings.
    public struct Options: Sendable {
        /// The account the mail is filed under.
        public var account = "local"
        /// The most messages per append batch. 768 since 2026-11-25 (512 before): a chunk's index puts land on
        /// fewer distinct pages per message and commits are fewer. Measured: 100K imports in 5.03-5.09 s (1,024:
        /// 4.88-5.01 s; 512: ~10% slower), 1M in 81 s at 169 MiB (1,024: 78-81 s at 180-196 MiB, over the
        /// 200 MB aim: LMDB's copies of the pages a chunk changes grow with the chunk; 512: 94 s at 161 MiB).
        public var batchMessages = 768
        /// The most raw bytes per append batch (8 MiB since 2026-12-06, 32 before). A message's parsed form can be
        /// several times its raw bytes (each address of a header is a few objects): 32 MiB of messages naming 1,000
        /// recipients each held ~150 MB of parsed addresses (an import at 276 MB); generated mail (~6 KB a message)
        /// ends its chunks at `batchMessages` either way.
        public var batchBytes = 8 << 20
        /// Parser threads.
        public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        /// For mbox: the folder to file the messages in (default: the file name without extension).
        public var folder: String?
        /// The largest message imported, in bytes (default 64 MiB): a larger one is skipped with a warning
        /// (listed in `ImportSummary.tooLarge`), and an mbox splitter never holds more than this of it.
        public var maxMessageBytes = MboxSplitter.defaultMaxMessageBytes
        /// The most bytes of file names one Maildir folder (`cur/`, `new/` or the folder itself) may list
        /// (default 1 GiB, ~15 million messages): its names are held while it is read, so a larger folder is
        /// refused with a clear error rather than filling memory.
        public var maxFolderNameBytes = 1 << 30
        /// For mbox: the most distinct messages whose hashes are kept in memory to number identical copies (default
        /// 2^20: 8 MiB of hashes, ~16 MiB with the set's room). Past it the table moves to a file in the store's
        /// scratch folder (at most 64 bytes of disk a distinct message) and the memory is freed: every identical copy is
        /// numbered, and so kept as its own message, however far apart; the numbers, and so the ids, do not depend on
        /// this bound (`Importer.CopyNumbering`).
        public var maxTrackedCopies = 1 << 20
        /// For mbox: how long to wait for another program's lock on the file (its `FILE.lock` dot-lock or an `fcntl`
        /// write lock), polled every 100 ms, before failing with `ImportError.mboxLocked` (default 10 s).
        public var mboxLockWait: Duration = MboxLock.defaultWait

        /// Files the mail under a server account's name all the same (tests only: it stands for mail a sync filed there,
        /// without a server). An import refuses such a name (``MailStore/checkImportAccount(_:)``).
        package var underServerAccount = false

        /// Default options.
        public init() {}
    }

    /// Progress: messages done so far, and the total when known.
    public typealias Progress = (_ done: Int, _ total: Int?) -> Void

    let store: MailStore
    let options: Options
    private let correlation = EventID.generate()
    private let identity: Identity
    private var summary = ImportSummary()
    private var ingests: [MessageIngest] = []
    /// True once the account has a blob dictionary or one was tried on this run's first chunk.
    private var dictionaryDecided = false
    /// The folders whose `FolderDiscovered` this run appended: the log holds no message of theirs under the ids an
    /// import derives (an import appends a folder's discovery before any of its messages, and those ids name the
    /// folder), so their chunks look nothing up before parsing. The append still finds any id already there.
    private var discoveredNow: Set<String> = []
    /// How many messages this importer looked up in the log before parsing them (a folder it discovered: none).
    package private(set) var messagesLookedUp = 0
    /// Test hook: Maildir folders whose listing fails as if their permissions refused it
    /// (`MaildirSource.refusedForTest`); empty in use.
    package var refusedForTest: Set<String> = []

    /// Creates an importer for `store`.
    public init(store: MailStore, options: Options = Options()) throws {
        try ImportError.checkAccount(options.account)
        if !options.underServerAccount { try store.checkImportAccount(options.account) }
        self.store = store
        self.options = options
        identity = try Identity()
        let categorizer = try store.categorizer(account: options.account)
        let dictionary = try store.log.blobDictionary(account: options.account)
        dictionaryDecided = dictionary != nil
        for _ in 0..<options.workers {
            // Each message's two ids side by side in the id index (see `MessageIngest.categorizedID`).
            ingests.append(try MessageIngest(account: options.account, categorizer: categorizer, dictionary: dictionary,
                                             categorizedBesideReceived: true))
        }
    }

    /// Imports the Maildir tree at `root`.
    public func importMaildir(_ root: String, progress: Progress? = nil) throws -> ImportSummary {
        let start = Deadline.now()
        summary = ImportSummary()
        var source = MaildirSource(root: root, maxNameBytes: options.maxFolderNameBytes)
        source.prefetchLimit = options.maxMessageBytes
        source.refusedForTest = refusedForTest
        let folders = try source.scan()
        let total = folders.reduce(0) { $0 + $1.count }
        summary.unreadable += source.unlisted
        // Folders too deep to walk are said to be skipped, with the entries of `cur/` and `new/` that are not mail.
        for line in source.notWalked { summary.addSkipped(line) }
        summary.skippedCount += source.notWalkedCount - source.notWalked.count
        summary.found = total
        summary.folders = folders.count
        try discover(folders.map(\.folder))
        // Whatever way this ends, what was committed is flushed (the log is opened without fsync per commit).
        defer { syncLog() }
        // The chunks are listed, looked at and looked up in the log on a thread of their own, one chunk ahead.
        let feed = try listedChunks(source, folders: folders)
        defer { feed.cancel() }
        var done = 0
        while let listed = try feed.next() {
            for (location, size) in listed.tooLarge { skipTooLarge(location, size: size) }
            for note in listed.notes {
                switch note {
                case .skipped(let line), .unlisted(let line): summary.addSkipped(line)
                case .vanished(let line): summary.addVanished(line)
                }
            }
            let unlisted = listed.notes.count { if case .unlisted = $0 { true } else { false } }
            messagesLookedUp += listed.lookedUp
            if !listed.messages.isEmpty { try process(listed.messages, known: listed.known) }
            done += listed.messages.count + listed.tooLarge.count + listed.notes.count - unlisted
            progress?(done, max(total, done))
        }
        try finishPending()
        // What the folders' listings met (files come and go between the count and the listing): each is imported,
        // already present, too large, unreadable, vanished or skipped.
        summary.found = done
        try store.log.environment.sync()
        summary.seconds = Deadline.now() - start
        return summary
    }

    /// A chunk of a Maildir tree to append: its messages, the log's sequences of those already imported, and the
    /// messages skipped for their size.
    private struct ListedChunk: @unchecked Sendable {
        var messages: [SourceMessage] = []
        var known: [UInt64?] = []
        /// How many of `messages` were looked up (none in a folder this run discovered).
        var lookedUp = 0
        var tooLarge: [(location: String, size: Int)] = []
        /// Entries skipped as not messages and message files that vanished (`MaildirSource.Note`).
        var notes: [MaildirSource.Note] = []
    }

    /// Lists the folders' messages a chunk at a time on a thread of its own (a chunk ends at `batchMessages` or
    /// `batchBytes`) and looks up which of them the log already has. The lookups run in the thread's own short
    /// read transactions, beside the appends: a message appended by the chunk before is not seen yet, and its
    /// append then finds it (`AppendOutcome.duplicate`, counted as already present). A chunk of a folder this run
    /// discovered (`discoveredNow`) looks nothing up: a first import of a Maildir makes no lookup.
    private func listedChunks(_ source: MaildirSource, folders: [MaildirSource.Listing]) throws -> ChunkFeed<ListedChunk> {
        // Its own Identity (a hasher each): the importer's is used on the appending thread meanwhile.
        nonisolated(unsafe) let lookups = try Identity()
        let account = options.account, batchMessages = options.batchMessages, batchBytes = options.batchBytes
        let maxMessageBytes = options.maxMessageBytes
        let log = store.log, discoveredNow = discoveredNow
        // The last listing of each folder path: two folders of the tree can be one folder (`Sent/` and `.Sent/`, the
        // root and `.INBOX/`), and the unique names met are held until its last one is read.
        let lastListing = Dictionary(folders.enumerated().map { ($1.folder.path, $0) }, uniquingKeysWith: { max($0, $1) })
        return ChunkFeed { emit in
            var chunk = ListedChunk()
            var chunkBytes = 0
            func send() throws {
                if chunk.messages.allSatisfy({ discoveredNow.contains($0.folder) }) {
                    chunk.known = Array(repeating: nil, count: chunk.messages.count)
                } else {
                    let ids = chunk.messages.map { MessageIngest.eventID(lookups, account: account, folder: $0.folder, location: $0.identityKey) }
                    chunk.known = try log.sequences(of: ids)
                    chunk.lookedUp = ids.count
                }
                // A collided message is looked up by the appending thread, by its bytes (`resolveCollisions`).
                for (i, m) in chunk.messages.enumerated() where m.collided { chunk.known[i] = nil }
                try emit(chunk)
                chunk = ListedChunk()
                chunkBytes = 0
            }
            // The unique names met in each folder path, as 64-bit hashes (8 bytes a message, ~16 with the set's room:
            // ~16 MiB for a folder of a million), kept per path until its last listing (other folders may be read
            // between two listings of one path: root, `.Drafts/`, `.INBOX/`): a name met again in the same path is a
            // collision. Two names of one hash are taken for one: the message is then compared by its bytes, and
            // imported all the same.
            var seenByPath: [String: Set<Int>] = [:]
            for (index, listing) in folders.enumerated() {
                var seen = seenByPath.removeValue(forKey: listing.folder.path) ?? []
                // Messages come a listing chunk at a time; a chunk to append ends at `batchMessages` or `batchBytes`.
                try source.messages(of: listing, chunk: batchMessages) { messages, notes in
                    chunk.notes += notes
                    if messages.isEmpty && chunk.notes.count >= batchMessages { try send() }
                    for var m in messages {
                        if m.size > maxMessageBytes {
                            chunk.tooLarge.append(("\(m.folder)/\(m.location)", m.size))
                        } else {
                            if !seen.insert(m.location.hashValue).inserted {
                                m.collided = true
                                // The file that had the name first goes in a chunk before it, appended first (only when
                                // it is in this one: a folder repeating another's files is not a chunk a message).
                                let location = m.location, folder = m.folder
                                if chunk.messages.contains(where: { $0.location == location && $0.folder == folder }) { try send() }
                            }
                            chunk.messages.append(m)
                            chunkBytes += m.size
                        }
                        // A chunk holds at most `batchMessages` entries, skipped ones included (and the notes of the
                        // listing chunk that filled it).
                        if chunk.messages.count + chunk.tooLarge.count + chunk.notes.count >= batchMessages || chunkBytes >= batchBytes { try send() }
                    }
                }
                // A folder's last chunk goes alone, as before.
                if !chunk.messages.isEmpty || !chunk.tooLarge.isEmpty || !chunk.notes.isEmpty { try send() }
                if lastListing[listing.folder.path] != index { seenByPath[listing.folder.path] = seen }
            }
        }
    }

    /// Records a message skipped for its size.
    private func skipTooLarge(_ location: String, size: Int) {
        summary.tooLarge.append("\(location): \(size) bytes, over the \(options.maxMessageBytes)-byte limit")
    }

    /// Flushes the log on an exit path that did not (an error): best effort, as an error is already on its way.
    private func syncLog() {
        try? store.log.environment.sync()
    }

    /// How far ahead of its reads an mbox import asks the kernel to read the file (`POSIX_FADV_WILLNEED`). A 50K-message
    /// (306 MB) mbox out of the page cache: 4.5-4.9 s against 4.8-5.6 s without (alternated, 2026-11-29; in the page
    /// cache 4.4-4.6 s either way).
    package static let mboxReadAhead = 16 << 20

    /// Imports the mbox file at `path` (mboxo or mboxrd), reading it in 1 MiB chunks. Its first
    /// `MboxStart.sniffBytes` (64 KiB) are looked at first: a compressed file (`ImportError.compressedMbox`) or one not
    /// beginning with a From_ line (`ImportError.notAnMbox`) throws before anything is stored; a UTF-8 byte-order mark
    /// before the first From_ line is skipped, and lines ending in CR alone are read as lines (`LoneCRLineEnds`).
    public func importMbox(_ path: String, progress: Progress? = nil) throws -> ImportSummary {
        let start = Deadline.now()
        summary = ImportSummary()
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError.sourceNotFound(path, String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        var st = stat()
        if fstat(handle.fileDescriptor, &st) == 0, st.st_mode & S_IFMT == S_IFCHR || st.st_mode & S_IFMT == S_IFBLK
            || st.st_mode & S_IFMT == S_IFDIR {
            throw ImportError.sourceNotFound(path, "not an mbox file (a device or folder); give a regular file or a pipe")
        }
        // A spool another program writes is read under its locks (`MboxLock`), and only as far as it was when they
        // were taken: what a writer appends meanwhile is left for the next import. A pipe has neither.
        var readLimit = Int.max
        if st.st_mode & S_IFMT == S_IFREG {
            _ = try MboxLock.acquire(fd: handle.fileDescriptor, path: path, wait: options.mboxLockWait)
            if fstat(handle.fileDescriptor, &st) == 0 { readLimit = Int(st.st_size) }
        }
        let fd = handle.fileDescriptor
        _ = posix_fadvise(fd, 0, off_t(Importer.mboxReadAhead), POSIX_FADV_WILLNEED)
        func read(upTo count: Int) throws -> Data {
            do { return try handle.read(upToCount: count) ?? Data() } catch {
                throw ImportError.sourceNotFound(path, error.localizedDescription)
            }
        }
        // The file's first `MboxStart.sniffBytes` (64 KiB, or the whole file when shorter) say whether it is an mbox,
        // before anything is stored: a compressed file or one not beginning with a From_ line is refused.
        var head: [UInt8] = []
        while head.count < min(MboxStart.sniffBytes, readLimit) {
            let data = try read(upTo: min(MboxStart.sniffBytes, readLimit) - head.count)
            if data.isEmpty { break }
            head.append(contentsOf: data)
        }
        let (skip, loneCR) = try Importer.mboxStart(head, path: path)
        let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let folder = try Importer.folderName(options.folder ?? (base.isEmpty ? "INBOX" : base))
        summary.folders = 1
        try discover([MaildirSource.Folder(path: folder, role: FolderNaming.role(forPath: folder))])
        defer { syncLog() }
        var splitter = MboxSplitter(maxMessageBytes: options.maxMessageBytes)
        // Each message's SHA-256, which its ids derive from (`SourceMessage.identityKey`), and the copies of identical
        // bytes met so far in the file, by the hash's first 8 bytes (`CopyNumbering`: in memory up to
        // `maxTrackedCopies` distinct messages, then in a file in the store's scratch folder).
        let hasher = try SHA256Hasher()
        let numbering = CopyNumbering(memoryLimit: options.maxTrackedCopies, store: store.directory, notice: store.notice)
        var ordinal = 0
        var chunk: [SourceMessage] = []
        var chunkBytes = 0
        func take(_ messages: [MboxMessage]) throws {
            for m in messages {
                ordinal += 1
                if let size = m.oversizedBytes {
                    skipTooLarge("#\(ordinal)", size: size)
                    continue
                }
                if m.isEmpty {
                    summary.addSkipped("\(path) #\(ordinal): an empty message (its From_ line is followed by another From_ line or the file's end)")
                    continue
                }
                let digest = hasher.hash(m.bytes)
                let short = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let copy = try numbering.copy(of: short)
                chunk.append(SourceMessage(folder: folder, location: "#\(ordinal)", contentHash: BlobHash(bytes: digest), copy: copy,
                                           content: .bytes(m.bytes), flags: [], fallbackDate: m.envelopeDate,
                                           size: m.bytes.count, mboxStatus: true))
                chunkBytes += m.bytes.count
                if chunk.count >= options.batchMessages || chunkBytes >= options.batchBytes {
                    try process(chunk)
                    progress?(ordinal, nil)
                    chunk.removeAll(keepingCapacity: true)
                    chunkBytes = 0
                }
            }
        }
        // The file is read 1 MiB at a time on this thread, between appends: the kernel is asked for the next
        // `mboxReadAhead` bytes beyond what was read (a pipe ignores it), so a file not in the page cache is read from
        // the disk while this thread parses and appends, not while it waits. At most that much of the page cache ahead.
        // Lines ending in CR alone are read as lines (`LoneCRLineEnds`: each such CR becomes LF).
        var lineEnds = loneCR ? LoneCRLineEnds() : nil
        func feed(_ bytes: UnsafeRawBufferPointer) throws {
            guard lineEnds != nil else { return try take(splitter.feed(bytes)) }
            let lines = lineEnds!.convert(bytes)
            try take(lines.withUnsafeBytes { splitter.feed($0) })
        }
        try head.withUnsafeBytes { try feed(UnsafeRawBufferPointer(rebasing: $0[skip...])) }
        var offset = head.count
        head = []
        while offset < readLimit {
            let data = try read(upTo: min(1 << 20, readLimit - offset))
            if data.isEmpty { break }
            _ = posix_fadvise(fd, off_t(offset + Importer.mboxReadAhead), off_t(data.count), POSIX_FADV_WILLNEED)
            offset += data.count
            try data.withUnsafeBytes { try feed($0) }
        }
        if let end = lineEnds?.finish(), !end.isEmpty { try take(end.withUnsafeBytes { splitter.feed($0) }) }
        try take(splitter.finish())
        if !chunk.isEmpty { try process(chunk) }
        try finishPending()
        progress?(ordinal, ordinal)
        summary.found = ordinal
        try store.log.environment.sync()
        summary.seconds = Deadline.now() - start
        return summary
    }

    /// How to read an mbox whose first bytes are `head` (`MboxStart.inspect`): the bytes of a UTF-8 byte-order mark to
    /// skip, and whether its lines end in CR alone. A compressed file (`ImportError.compressedMbox`) or one not
    /// beginning with a From_ line (`ImportError.notAnMbox`) is refused.
    static func mboxStart(_ head: [UInt8], path: String) throws(ImportError) -> (skip: Int, loneCR: Bool) {
        switch MboxStart.inspect(head) {
        case .mbox(let skip, let loneCR):
            return (skip, loneCR)
        case .compressed(let format):
            let quote = { (p: String) in "'" + p.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            let out = path.hasSuffix(format.fileExtension) && path.count > format.fileExtension.count
                ? String(path.dropLast(format.fileExtension.count)) : path + ".mbox"
            throw .compressedMbox(path: path, format: format.rawValue,
                                  command: "\(format.decompressToStdout) \(quote(path)) > \(quote(out))")
        case .notMbox(let begins, let advice):
            throw .notAnMbox(path: path, begins: begins, advice: advice)
        }
    }

    /// The folder an mbox is imported into, for `name` as given: `INBOX` in any case is the Inbox, `INBOX`
    /// (docs/cli.md); an empty name is refused (`ImportError.invalidFolder`).
    static func folderName(_ name: String) throws(ImportError) -> String {
        guard !name.isEmpty else { throw .invalidFolder(name) }
        return name.lowercased() == "inbox" ? "INBOX" : name
    }

    /// Appends `FolderDiscovered` for each folder (once: derived ids).
    private func discover(_ folders: [MaildirSource.Folder]) throws {
        let account = options.account
        let events = folders.map { f in
            NewEvent(id: identity.eventID("FolderDiscovered", account, f.path),
                     event: .folderDiscovered(FolderDiscovered(folder: f.path, displayName: FolderNaming.displayName(forPath: f.path),
                                                               role: f.role, delimiter: "/")),
                     account: account, stream: .folder(account: account, path: f.path), correlationID: correlation, actor: .system)
        }
        let outcomes = try store.commit(events)
        discoveredNow = Set(zip(folders, outcomes).filter { $0.1.isNew }.map { $0.0.path })
    }

    /// A chunk read and parsed, ready to append.
    private struct ParsedChunk: @unchecked Sendable {
        var events: [NewEvent] = []
        var blobs: [PendingBlob] = []
        var bytes = 0
        var warnings: [[String]] = []
        var unreadable: [String] = []
        var skipped = 0
    }

    /// The chunk being parsed in the background while the previous one is appended.
    private var pending: (DispatchGroup, UnsafeMutablePointer<ParsedChunk>)?
    /// The appended chunk being freed on another thread: at most one at a time, so at most three chunks are in
    /// memory (one parsing, one appending, one being freed).
    private let freeing = DispatchGroup()

    /// Starts parsing `chunk` on the worker threads, then appends the chunk parsed before it (so parsing
    /// one chunk overlaps appending the previous one; the workers' contexts are never shared between two
    /// parses). `finishPending()` appends the last one.
    /// `known`: the log's sequences of the chunk's messages already there, when looked up already.
    private func process(_ listed: [SourceMessage], known listedKnown: [UInt64?]? = nil) throws {
        var resolved = listed, lookedUp = listedKnown
        var collidedPresent = Set<Int>()
        if listed.contains(where: \.collided) {
            (collidedPresent, lookedUp) = try resolveCollisions(&resolved, known: lookedUp ?? Array(repeating: nil, count: listed.count))
        }
        let chunk = resolved
        // A folder this run discovered has nothing to look up (`discoveredNow`), by either id of an mbox message.
        let fresh = lookedUp == nil && chunk.allSatisfy { discoveredNow.contains($0.folder) }
        if lookedUp == nil && !fresh { messagesLookedUp += chunk.count }
        // The importer's own Identity: the workers' may be busy parsing the previous chunk.
        let known = try lookedUp ?? (fresh ? Array(repeating: nil, count: chunk.count) : store.log.sequences(of: chunk.map {
            MessageIngest.eventID(identity, account: options.account, folder: $0.folder, location: $0.identityKey)
        }))
        let present = (fresh ? [] : try presentByOrdinal(chunk, known: known)).union(collidedPresent)
        let todo = chunk.indices.filter { known[$0] == nil && !present.contains($0) }
        let previous = waitPending()
        if !dictionaryDecided && !todo.isEmpty { try trainDictionary(chunk, todo: todo) }
        let box = UnsafeMutablePointer<ParsedChunk>.allocate(capacity: 1)
        box.initialize(to: ParsedChunk(skipped: chunk.count - todo.count))
        let group = DispatchGroup()
        nonisolated(unsafe) let workers = ingests
        nonisolated(unsafe) let out = box
        let correlation = self.correlation
        DispatchQueue.global().async(group: group) {
            Importer.parse(chunk, todo: todo, workers: workers, correlation: correlation, into: out)
        }
        pending = (group, box)
        if let previous { try commit(previous) }
    }

    /// The mbox messages of `chunk` not `known` by their content that the log has under the id of their ordinal, with
    /// the same bytes: imported before 2026-12-04, when an mbox message's ids derived from its ordinal (`#3`). Found by
    /// that id's event and its blob's SHA-256, so an mbox imported then is not imported again; a message at an ordinal
    /// the log has with other bytes (another mbox, or this one changed) is new mail.
    private func presentByOrdinal(_ chunk: [SourceMessage], known: [UInt64?]) throws -> Set<Int> {
        let unknown = chunk.indices.filter { known[$0] == nil && chunk[$0].contentHash != nil }
        guard !unknown.isEmpty else { return [] }
        let byOrdinal = try store.log.sequences(of: unknown.map {
            MessageIngest.eventID(identity, account: options.account, folder: chunk[$0].folder, location: chunk[$0].location)
        })
        var present = Set<Int>()
        for (i, sequence) in zip(unknown, byOrdinal) {
            guard let sequence, let event = try store.log.event(at: sequence),
                  case .emailReceived(let p)? = try? event.decode() else { continue }
            if p.blob == chunk[i].contentHash { present.insert(i) }
        }
        return present
    }

    /// Decides what each collided Maildir message of `chunk` is (`SourceMessage.collided`: another file of its
    /// folder had its unique name first in this import), once every chunk before it is appended: the same bytes as the
    /// message the log holds under that name (a file renamed from `new/` to `cur/` while listed, a copy) is that
    /// message, already present (returned by index); other bytes (another message sharing the name) take ids of their
    /// own from the name and their SHA-256 (`collisionHash`), looked up again (the `known` returned), so a second
    /// import finds them. With no message under the name, the file keeps it. Each collided file is read here (at most
    /// `maxMessageBytes`, its size being checked when listed) and handed on as bytes: it is not read twice.
    private func resolveCollisions(_ chunk: inout [SourceMessage], known: [UInt64?]) throws -> (Set<Int>, [UInt64?]) {
        try finishPending()
        var known = known, present = Set<Int>()
        let hasher = try SHA256Hasher()
        for i in chunk.indices where chunk[i].collided {
            let m = chunk[i]
            // One that cannot be read is left to the ingest, which reports it unreadable.
            guard let bytes = try? MessageIngest.bytes(of: m) else { continue }
            let hash = BlobHash(bytes: hasher.hash(bytes))
            chunk[i].content = .bytes(bytes)
            let plain = MessageIngest.eventID(identity, account: options.account, folder: m.folder, location: m.identityKey)
            guard let sequence = try store.log.sequences(of: [plain]).first ?? nil else { continue }
            if case .emailReceived(let p)? = try? store.log.event(at: sequence)?.decode(), p.blob == hash {
                present.insert(i)
                continue
            }
            chunk[i].collisionHash = hash
            known[i] = try store.log.sequences(of: [MessageIngest.eventID(identity, account: options.account, folder: m.folder,
                                                                          location: chunk[i].identityKey)]).first ?? nil
        }
        return (present, known)
    }

    /// Trains the account's blob dictionary on the first chunk with new mail and hands it to the workers,
    /// which are idle here. A chunk too small to train on leaves the account without one until a later import.
    private func trainDictionary(_ chunk: [SourceMessage], todo: [Int]) throws {
        dictionaryDecided = true
        _ = try MessageIngest.trainDictionary(store.log, account: options.account, count: todo.count,
                                              message: { try? MessageIngest.bytes(of: chunk[todo[$0]]) }, into: ingests)
    }

    /// Waits for the chunk being parsed and appends it.
    private func finishPending() throws {
        if let box = waitPending() { try commit(box) }
    }

    private func waitPending() -> UnsafeMutablePointer<ParsedChunk>? {
        guard let (group, box) = pending else { return nil }
        pending = nil
        group.wait()
        return box
    }

    private func commit(_ box: UnsafeMutablePointer<ParsedChunk>) throws {
        let c = box.move()
        box.deallocate()
        defer {
            // The chunk's events and blobs (thousands of arrays and strings) are freed on another thread, which
            // holds the last reference: this one goes on to list and append the next chunk (freeing them here
            // was ~4% of its time).
            freeing.wait()
            DispatchQueue.global().async(group: freeing) { withExtendedLifetime(c) {} }
        }
        summary.alreadyPresent += c.skipped
        summary.bytes += c.bytes
        summary.unreadable += c.unreadable
        for w in c.warnings where !w.isEmpty {
            summary.malformed += 1
            for code in w { summary.warnings[code, default: 0] += 1 }
        }
        guard !c.events.isEmpty else { return }
        let outcomes = try store.commit(c.events, blobs: c.blobs)
        for (o, e) in zip(outcomes, c.events) where e.event.type == .emailReceived {
            if o.isNew { summary.imported += 1 } else { summary.alreadyPresent += 1 }
        }
        // Keep the resident size bounded whatever the mailbox size: the log's pages this append touched are
        // unmapped from this process when over the budget (they stay in the file and page cache), here, every
        // 64 puts inside the append (`EventLog.releaseInterval`) and every 64 lookups of `sequences(of:)`. Where
        // the kernel's fault-around is on, each B-tree page an append reads maps its 64 KiB neighbourhood too: one
        // chunk of 512 messages mapped up to ~200 MiB of the log; checking only after each chunk left a 100K import
        // at 253 MiB, every 256 puts at ~150 MiB. At 1M, 256 puts mapped up to ~70 MiB and the unchecked lookups of a chunk
        // ~75 MiB (a 215 MiB peak); with both checked every 64, 144 MiB (169 MiB with 768-message chunks).
        store.log.environment.releaseResidentPages(over: type(of: store.log.environment).residentFileBudget)
    }

    private static func parse(_ chunk: [SourceMessage], todo: [Int], workers: [MessageIngest], correlation: EventID,
                              into out: UnsafeMutablePointer<ParsedChunk>) {
        guard !todo.isEmpty else { return }
        let results = UnsafeMutableBufferPointer<Result<MessageIngest.Result, Error>?>.allocate(capacity: todo.count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let slots = results
        nonisolated(unsafe) let ingests = workers
        ParallelWork.forEach(count: todo.count, workers: workers.count) { w, i in
            slots[i] = Result { try ingests[w].ingest(chunk[todo[i]], correlation: correlation) }
        }
        for (i, idx) in todo.enumerated() {
            switch results[i]! {
            case .success(let r):
                out.pointee.events += r.events
                out.pointee.blobs.append(r.blob)
                out.pointee.bytes += r.bytes
                out.pointee.warnings.append(r.warnings.map(\.code.rawValue))
            case .failure(let e):
                out.pointee.unreadable.append("\(chunk[idx].location): \(e)")
            }
        }
    }
}
