import EventLog
import EventModel
import Foundation
import IMAPProtocol
import MailParser

/// Finds the folders and messages of a Maildir tree.
///
/// The root is `INBOX`. Maildir++ subfolders (`.Sent`, `.Lists.swift-dev`) become `Sent` and
/// `Lists/swift-dev`; plain subfolders (`bar/baz`, as notmuch's corpora have them) keep their path.
/// Messages are the files in `cur/` and `new/` (not dot-files), and, notmuch-style, regular files directly in a folder
/// that are not Maildir bookkeeping (`maildirsize`, `dovecot*`, `courierimap*`, dot-files...: left out without a word)
/// nor an mbox file lying there (it begins with a From_ line: said to be skipped). `tmp/` and notmuch's database
/// (`.notmuch/`) are not walked. Maildir++ names in modified UTF-7 (Dovecot's on-disk encoding, `.Entw&APw-rfe`) are
/// decoded (`Entwürfe`); one that does not decode keeps its name.
struct MaildirSource {
    /// A folder found in the tree.
    struct Folder: Equatable {
        var path: String
        var role: FolderRole
    }

    let root: String
    /// What `scan` could not list, as `ImportSummary.unreadable` lines: folders whose names are not UTF-8 (at most
    /// `maxUnlisted`).
    private(set) var unlisted: [String] = []
    /// The folders not descended into for being nested `maxDepth` levels or more below the root, or for not being
    /// readable (their permissions, or gone while the tree was walked), as `ImportSummary.skipped` lines saying so
    /// (at most `ImportSummary.maxListed`; `notWalkedCount` counts them all).
    private(set) var notWalked: [String] = []
    /// How many folders were not descended into for their depth or for not being readable.
    private(set) var notWalkedCount = 0
    /// Test hook: folders whose listing fails as if their permissions refused it (`EACCES`). Tests run as root, whom
    /// permissions do not stop; empty in use.
    package var refusedForTest: Set<String> = []
    /// The most bytes of names one folder may list (`Importer.Options.maxFolderNameBytes`).
    var maxNameBytes = 1 << 30
    /// Each message file looked at of at most this many bytes is also asked into the page cache
    /// (`POSIX_FADV_WILLNEED`; 0: none): the kernel starts reading it from the disk at once, beside the other files of
    /// its chunk, while the chunk before is parsed. A Maildir not in the page cache (a first import) is otherwise read
    /// one file at a time per parse worker, each read waiting for the disk: a cold 100K-message import took 16-17 s
    /// against 8-9 s with this (6.5-7 s warm either way, 2026-11-29). Nothing beyond a chunk's files is asked for
    /// (`Importer.Options.batchMessages`, `batchBytes`: the listing runs one chunk ahead of the parse); the importer
    /// sets its message size limit here, so a file it skips is not read. The file opened for that is handed on to its
    /// reader (`OpenedFile`), which then does not open it again.
    var prefetchLimit = 0

    /// Files of Maildir bookkeeping (besides dot-files and the `dovecot` and `courierimap` prefixes): not mail, left
    /// out without a word.
    static let bookkeeping: Set<String> = ["maildirfolder", "maildirsize", "subscriptions", "courierimapsubscribed",
                                           "mbsyncstate", "offlineimap.uidvalidity"]
    /// Folders that are some program's database, not mail: not walked.
    static let notMailFolders: Set<String> = [".notmuch"]

    /// A folder and where its messages are: its `cur/` and `new/` folders and, when it holds loose message
    /// files, the folder itself.
    struct Listing {
        var folder: Folder
        /// The folders holding its message files, each with whether it is `new/` and whether it is the
        /// folder itself (loose files, bookkeeping files skipped).
        var places: [(dir: String, new: Bool, loose: Bool)]
        /// The message files counted when listed (files may come and go before they are read).
        var count: Int
    }

    /// Every folder of the tree with the number of its messages. Messages themselves are not held: the
    /// tree of a million messages is listed in a few MB (`messages(of:_:)` reads one folder at a time).
    mutating func scan() throws -> [Listing] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
            throw ImportError.sourceNotFound(root, "not a folder")
        }
        var out: [Listing] = []
        unlisted = []
        notWalked = []
        notWalkedCount = 0
        try walk(root, folder: "INBOX", out: &out, depth: 0)
        return out
    }

    /// The most folders `unlisted` names (one line more says how many others).
    static let maxUnlisted = 100

    /// How deep below the root folders are walked: the root is level 0, and a folder at level `maxDepth` (the 65th
    /// folder of a path counting the root) is not descended into, nor anything in it; it is reported as skipped
    /// (`notWalked`), never dropped without a word. It bounds the walk's recursion and a tree that loops back on itself
    /// (a bind mount; links are not followed). Mail trees are rarely deeper than ~20 levels, and a Maildir++ folder is
    /// one level whatever its depth as a mail folder (`.a.b.c`).
    static let maxDepth = 64

    private mutating func walk(_ dir: String, folder: String, out: inout [Listing], depth: Int) throws {
        guard depth < MaildirSource.maxDepth else {
            notWalkedCount += 1
            if notWalked.count < ImportSummary.maxListed {
                notWalked.append("\(dir): a folder nested more than \(MaildirSource.maxDepth) levels below the Maildir root; "
                                 + "not imported, nor anything in it (move it higher up the tree, or import it on its own with "
                                 + "--maildir, which files its mail under INBOX)")
            }
            return
        }
        // The root unreadable is an error; a folder below it that cannot be read (its permissions, a `lost+found`
        // of root's, or gone since its parent was listed) is said to be skipped with the reason, and the rest of the
        // tree is imported.
        guard let listed = try names(in: dir) else {
            let why = String(cString: strerror(errno))
            guard depth > 0 else { throw ImportError.sourceNotFound(dir, why + MaildirSource.accessHint) }
            notReadable(dir, why)
            return
        }
        // Each entry is looked at relative to the folder, by the bytes of its name: one that is not UTF-8 is still
        // found (a message file with such a name is then opened by its bytes; a folder, walked by its path, which
        // such a name cannot be part of, is said to be left out, not skipped without a word).
        let d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard d >= 0 else {
            let why = String(cString: strerror(errno))
            guard depth > 0 else { throw ImportError.sourceNotFound(dir, why + MaildirSource.accessHint) }
            notReadable(dir, why)
            return
        }
        defer { close(d) }
        var places: [(dir: String, new: Bool, loose: Bool)] = []
        var count = 0, loose = 0, keepFolder = false
        var subdirs: [(String, String)] = []
        for i in listed.sortedIndices() {
            let name = listed[i]
            var st = stat()
            guard listed.withCName(i, { fstatat(d, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }
            let kind = st.st_mode & S_IFMT
            if kind == S_IFDIR && !listed.isUTF8(i) {
                if unlisted.count < MaildirSource.maxUnlisted {
                    unlisted.append("\(dir)/\(name): a folder whose name is not UTF-8 was not imported (rename it)")
                } else if unlisted.count == MaildirSource.maxUnlisted {
                    unlisted.append("more folders whose names are not UTF-8 were not imported")
                }
                continue
            }
            let path = dir + "/" + name
            if kind == S_IFDIR {
                if name == "cur" || name == "new" {
                    places.append((path, name == "new", false))
                    // One that cannot be listed keeps its folder listed: reading it says why its messages were not
                    // imported (`messages(of:chunk:_:)`), as for one that goes away meanwhile.
                    if let names = try names(in: path) { count += names.countMessages() } else { keepFolder = true }
                    keepFolder = keepFolder || name == "cur"
                } else if name == "tmp" || name.hasPrefix("..") || MaildirSource.notMailFolders.contains(name) {
                    continue
                } else if name.hasPrefix(".") {
                    // Maildir++: ".A.B" is folder A/B below the root, each level in modified UTF-7 on disk (Dovecot).
                    let sub = name.dropFirst().split(separator: ".").map { MaildirSource.decodedName($0) }.joined(separator: "/")
                    if !sub.isEmpty { subdirs.append((path, depth == 0 ? sub : folder + "/" + sub)) }
                } else {
                    subdirs.append((path, folder == "INBOX" && depth == 0 ? name : folder + "/" + name))
                }
            } else if kind == S_IFREG, MaildirSource.isLooseMessage(name) {
                loose += 1
            }
        }
        if loose > 0 { places.append((dir, false, true)) }
        count += loose
        if count > 0 || depth == 0 || keepFolder {
            out.append(Listing(folder: Folder(path: folder, role: FolderNaming.role(forPath: folder)), places: places, count: count))
        }
        for (path, sub) in subdirs {
            try walk(path, folder: sub, out: &out, depth: depth + 1)
        }
    }

    /// What an error reading a folder ends with: what to do.
    static let accessHint = " (give the importing user read and search access to it, e.g. chmod u+rx, or import as its owner)"

    /// Counts folder `dir`, which could not be read for `why`, as not walked (`notWalked`).
    private mutating func notReadable(_ dir: String, _ why: String) {
        notWalkedCount += 1
        if notWalked.count < ImportSummary.maxListed {
            notWalked.append("\(dir): a folder that cannot be read (\(why)); not imported, nor anything in it"
                             + MaildirSource.accessHint)
        }
    }

    /// A file directly in a folder that may be a message: not a dot-file, not Maildir or server bookkeeping.
    static func isLooseMessage(_ name: String) -> Bool {
        !(name.hasPrefix(".") || bookkeeping.contains(name) || name.hasPrefix("dovecot") || name.hasPrefix("courierimap"))
    }

    /// A Maildir++ folder name's level as the name it encodes in modified UTF-7 (RFC 3501 5.1.3, as Dovecot writes
    /// names on disk); a name that is not modified UTF-7 (plain UTF-8, a lone `&`) is kept as it is.
    static func decodedName(_ level: Substring) -> String {
        guard level.utf8.contains(UInt8(ascii: "&")), let decoded = try? ModifiedUTF7.decode(level.utf8),
              !decoded.isEmpty, !decoded.contains("/") else { return String(level) }
        return decoded
    }

    /// What the listing met besides messages, for `ImportSummary`.
    enum Note: Equatable {
        /// An entry of `cur/` or `new/` that is not a message file (a FIFO, a socket, a folder, a dangling link): its
        /// path and why.
        case skipped(String)
        /// A message file gone between the listing and its reading, and not found again under its unique name (deleted
        /// or moved to another folder meanwhile): its folder and unique name.
        case vanished(String)
        /// A `cur/`, `new/` or folder of loose files that could not be listed when read (its permissions, or deleted,
        /// renamed or replaced since the walk): why, as a `skipped` line. Not an entry: not counted in `found`.
        case unlisted(String)
    }

    /// How many rounds of looking again for files renamed meanwhile (`messages(of:chunk:_:)`): a file renamed again
    /// each time it is looked for is said to have vanished after this many.
    static let maxLookAgain = 3

    /// Calls `body` with the messages of `listing`, place by place in file-name order, `chunk` at a time, and what
    /// was met that is not a message (`Note`). One place's names are held at once, packed (the name bytes and an offset
    /// each: ~70 bytes a message), and each message is looked at (`stat`) only when its chunk is made.
    ///
    /// A file gone when it is looked at was most often renamed by a mail client or `mbsync` (a flag changed:
    /// `:2,S` to `:2,RS`, or moved from `new/` to `cur/`): as Dovecot does, its unique name (before `:2,`) is looked
    /// for again in `cur/` and `new/` once the folder's listing is done (one more listing of them a round, at most
    /// `maxLookAgain` rounds), and the file found is read with its flags of now. One not found is a `Note.vanished`.
    func messages(of listing: Listing, chunk: Int, _ body: ([SourceMessage], [Note]) throws -> Void) throws {
        var batch: [SourceMessage] = []
        var notes: [Note] = []
        batch.reserveCapacity(chunk)
        func take(_ entry: Entry, unique: () -> String, missing: inout Set<String>) throws {
            switch entry {
            case .message(let m): batch.append(m)
            case .notMessage(let why): notes.append(.skipped(why))
            case .gone: missing.insert(unique())
            case .ignored: return
            }
            if batch.count + notes.count >= chunk {
                try body(batch, notes)
                batch.removeAll(keepingCapacity: true)
                notes.removeAll()
            }
        }
        // `new/` first: a client moves a message from `new/` to `cur/` (as it reads it), so one moved while `new/` is
        // read is found in `cur/`, listed later, and one moved meanwhile is missed in `new/`; a missed one met in a
        // later listing is found.
        var missing = Set<String>()
        for place in listing.places.filter(\.new) + listing.places.filter({ !$0.new }) {
            let failure = try each(in: place, folder: listing.folder.path, where: { _ in true }) { entry, name in
                if !missing.isEmpty { missing.remove(MaildirFilename.uniquePart(of: name)) }
                try take(entry, unique: { MaildirFilename.uniquePart(of: name) }, missing: &missing)
            }
            // A place that cannot be listed now (its permissions, or it or its folder deleted or renamed since the
            // tree was walked) is said to be skipped: its messages are not imported, and nothing is dropped unsaid.
            if let failure { notes.append(.unlisted(MaildirSource.unlistedLine(place.dir, errno: failure))) }
        }
        var round = 0
        while !missing.isEmpty && round < MaildirSource.maxLookAgain {
            round += 1
            var wanted = missing
            missing = []
            for place in listing.places {
                _ = try each(in: place, folder: listing.folder.path, where: { wanted.remove(MaildirFilename.uniquePart(of: $0)) != nil }) { entry, name in
                    try take(entry, unique: { MaildirFilename.uniquePart(of: name) }, missing: &missing)
                }
            }
            for unique in wanted.sorted() { notes.append(.vanished("\(listing.folder.path)/\(unique)")) }
        }
        for unique in missing.sorted() { notes.append(.vanished("\(listing.folder.path)/\(unique)")) }
        if !batch.isEmpty || !notes.isEmpty { try body(batch, notes) }
    }

    /// The `Note.skipped` line of a place of messages (`cur/`, `new/` or a folder's loose files) that could not be
    /// listed for `errno` `code`.
    static func unlistedLine(_ dir: String, errno code: Int32) -> String {
        let why = String(cString: strerror(code))
        if code == ENOENT || code == ENOTDIR {
            return "\(dir): gone since the folder was listed (\(why): deleted, renamed or replaced while importing); "
                + "the messages in it were not imported (import again once it is back)"
        }
        return "\(dir): cannot be listed (\(why)); the messages in it were not imported" + accessHint
    }

    /// Calls `body` with each entry of `place` in file-name order whose name `wanted` takes (dot-files are not
    /// messages, nor bookkeeping directly in a folder: left out), looked at. Returns the `errno` of the failure when
    /// `place` could not be listed (nothing called), nil when it was.
    private func each(in place: (dir: String, new: Bool, loose: Bool), folder: String, where wanted: (String) -> Bool,
                      _ body: (Entry, String) throws -> Void) throws -> Int32? {
        guard let names = try names(in: place.dir) else { return errno }
        // Each message is looked at relative to its folder (`fstatat`): the kernel walks one name, not the path.
        let dir = open(place.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return errno }
        defer { close(dir) }
        for i in names.sortedIndices() {
            let name = names[i]
            guard !name.hasPrefix("."), !place.loose || MaildirSource.isLooseMessage(name), wanted(name) else { continue }
            let entry = names.withCName(i) {
                message(in: dir, place.dir, name: name, cName: $0, byName: names.isUTF8(i), folder: folder, new: place.new,
                        loose: place.loose)
            }
            try body(entry, name)
        }
        return nil
    }

    /// The entry names of `dir` (not `.` and `..`), packed; nil when it cannot be read. More than
    /// `maxNameBytes` of names is refused (`ImportError.sourceNotFound` saying so).
    func names(in dir: String) throws -> PackedNames? {
        if refusedForTest.contains(dir) {
            errno = EACCES
            return nil
        }
        guard let d = opendir(dir) else { return nil }
        defer { closedir(d) }
        var names = PackedNames()
        while let e = readdir(d) {
            let bytes = DirectoryEntry.name(e)
            if bytes.elementsEqual([UInt8(ascii: ".")]) || bytes.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { continue }
            guard names.byteCount + bytes.count <= maxNameBytes else {
                throw ImportError.sourceNotFound(dir, "its file names pass \(maxNameBytes) bytes (Importer.Options.maxFolderNameBytes): split the folder")
            }
            names.append(bytes)
        }
        return names
    }

    /// What one entry of `cur/` or `new/` is.
    enum Entry {
        /// A message file.
        case message(SourceMessage)
        /// Not a message file: its path and why (`Note.skipped`).
        case notMessage(String)
        /// Gone since it was listed (renamed or deleted).
        case gone
        /// Directly in a folder and not a regular file (a folder walked on its own): not a message, nothing to say.
        case ignored
    }

    /// The message in file `cName` of `dir` (`name` as shown; `byName`: a path made of `name` opens it, else, its name
    /// not being UTF-8, only its bytes do, so it is opened here and read through the descriptor).
    private func message(in dir: Int32, _ dirPath: String, name: String, cName: UnsafePointer<CChar>, byName: Bool,
                         folder: String, new: Bool, loose: Bool) -> Entry {
        var st = stat()
        let path = dirPath + "/" + name
        // With prefetch, the file is opened first and looked at through its descriptor: the kernel walks its name
        // once, not for a `stat` and again for the `open`. Non-blocking and no controlling terminal, should the name
        // be something else than a file (a FIFO opens at once and is refused, never read). A file that cannot be opened
        // (its permissions) is looked at by name, listed, and reported unreadable by its reader as before.
        // A link directly in a folder is not followed (docs/cli.md): only `cur/` and `new/` hold link folders' messages.
        let noFollow = loose ? O_NOFOLLOW : 0
        let fd: Int32 = prefetchLimit > 0 || !byName ? openat(dir, cName, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | noFollow) : -1
        if fd >= 0 {
            guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                return loose ? .ignored : .notMessage("\(path): \(MaildirSource.kind(st.st_mode)), not a message file")
            }
        } else if fstatat(dir, cName, &st, loose ? AT_SYMLINK_NOFOLLOW : 0) != 0 {
            // Gone, or a symbolic link to nothing (or a socket, which cannot be opened).
            guard fstatat(dir, cName, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return .gone }
            return loose ? .ignored : .notMessage("\(path): \(MaildirSource.kind(st.st_mode)), not a message file")
        } else if st.st_mode & S_IFMT != S_IFREG {
            return loose ? .ignored : .notMessage("\(path): \(MaildirSource.kind(st.st_mode)), not a message file")
        }
        if loose && MaildirSource.beginsWithFromLine(in: dir, cName, fd: fd) {
            if fd >= 0 { close(fd) }
            return .notMessage("\(path): an mbox file lying in a folder (it begins with a From_ line), not a message; import it with --mbox")
        }
        var opened: OpenedFile?
        if fd >= 0 {
            if !byName {
                // Held open whatever the count (no path reaches it): at most a chunk's messages are listed ahead.
                opened = OpenedFile.adopt(fd, limit: .max)
            } else if st.st_size > 0 && st.st_size <= prefetchLimit {
                _ = posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED)
                // Handed on to the worker that reads it (`OpenedFile`), while few enough are open.
                opened = OpenedFile.adopt(fd)
            }
            if opened == nil { close(fd) }
        }
        var flags = MaildirFilename.flags(of: name)
        if new { flags.removeAll { $0 == "\\Seen" } }
        let mtime = Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec))
        return .message(SourceMessage(folder: folder, location: MaildirFilename.uniquePart(of: name),
                                      content: opened.map { .opened($0, path: path) } ?? .file(path),
                                      flags: flags, fallbackDate: mtime, size: Int(st.st_size)))
    }

    /// Whether the file `cName` of `dir` (open at `fd` when that is not -1) begins with `From `: an mbox's first From_
    /// line. A Maildir message never does; a file that cannot be read is left to its reader to say so. Reads 5 bytes.
    private static func beginsWithFromLine(in dir: Int32, _ cName: UnsafePointer<CChar>, fd: Int32) -> Bool {
        let file = fd >= 0 ? fd : openat(dir, cName, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 else { return false }
        defer { if file != fd { close(file) } }
        var head = [UInt8](repeating: 0, count: 5)
        let n = head.withUnsafeMutableBytes { pread(file, $0.baseAddress, 5, 0) }
        return n == 5 && head == Array("From ".utf8)
    }

    /// What a file of `mode` is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link to nothing"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }
}
