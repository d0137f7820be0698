import EventLog
import EventModel
import Foundation
import MailParser

/// Finds the folders and messages of a Maildir tree.
///
/// The root is `INBOX`. Maildir++ subfolders (`.Sent`, `.Lists.swift-dev`) become `Sent` and
/// `Lists/swift-dev`; plain subfolders (`bar/baz`, as notmuch's corpora have them) keep their path.
/// Messages are the files in `cur/` and `new/`, and, notmuch-style, regular files directly in a folder
/// that are not Maildir bookkeeping (dovecot index files, `maildirfolder`, dot-files). `tmp/` is skipped.
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

    static let bookkeeping: Set<String> = ["maildirfolder", "subscriptions", "dovecot-uidlist", "dovecot-keywords",
                                           "dovecot.index", "dovecot.index.log", "dovecot.index.cache",
                                           "dovecot.list.index", "dovecot.list.index.log", "dovecot-uidvalidity",
                                           "courierimapuiddb", "courierimapkeywords", "courierimapacl"]

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
        try walk(root, folder: "INBOX", out: &out, depth: 0)
        return out
    }

    /// The most folders `unlisted` names (one line more says how many others).
    static let maxUnlisted = 100

    private mutating func walk(_ dir: String, folder: String, out: inout [Listing], depth: Int) throws {
        guard depth < 64 else { return }
        guard let listed = try names(in: dir) else {
            throw ImportError.sourceNotFound(dir, String(cString: strerror(errno)))
        }
        // Each entry is looked at relative to the folder, by the bytes of its name: one that is not UTF-8 is still
        // found (a message file with such a name is then opened by its bytes; a folder, walked by its path, which
        // such a name cannot be part of, is said to be left out, not skipped without a word).
        let d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard d >= 0 else { throw ImportError.sourceNotFound(dir, String(cString: strerror(errno))) }
        defer { close(d) }
        var places: [(dir: String, new: Bool, loose: Bool)] = []
        var count = 0, loose = 0, hasCur = false
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
                    hasCur = hasCur || name == "cur"
                    places.append((path, name == "new", false))
                    count += try names(in: path)?.count ?? 0
                } else if name == "tmp" || name.hasPrefix("..") {
                    continue
                } else if name.hasPrefix(".") {
                    // Maildir++: ".A.B" is folder A/B below the root.
                    let sub = name.dropFirst().split(separator: ".").joined(separator: "/")
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
        if count > 0 || depth == 0 || hasCur {
            out.append(Listing(folder: Folder(path: folder, role: FolderNaming.role(forPath: folder)), places: places, count: count))
        }
        for (path, sub) in subdirs {
            try walk(path, folder: sub, out: &out, depth: depth + 1)
        }
    }

    /// A file directly in a folder that is a message, not Maildir or server bookkeeping.
    static func isLooseMessage(_ name: String) -> Bool {
        !(name.hasPrefix(".") || bookkeeping.contains(name) || name.hasPrefix("dovecot"))
    }

    /// Calls `body` with the messages of `listing`, place by place in file-name order, `chunk` at a time.
    /// One place's names are held at once, packed (the name bytes and an offset each: ~70 bytes a message),
    /// and each message is looked at (`stat`) only when its chunk is made.
    func messages(of listing: Listing, chunk: Int, _ body: ([SourceMessage]) throws -> Void) throws {
        var batch: [SourceMessage] = []
        batch.reserveCapacity(chunk)
        for place in listing.places {
            guard let names = try names(in: place.dir) else { continue }
            // Each message is looked at relative to its folder (`fstatat`): the kernel walks one name, not the path.
            let dir = open(place.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard dir >= 0 else { continue }
            defer { close(dir) }
            for i in names.sortedIndices() {
                let name = names[i]
                if place.loose && !MaildirSource.isLooseMessage(name) { continue }
                let m = names.withCName(i) {
                    message(in: dir, place.dir, name: name, cName: $0, byName: names.isUTF8(i), folder: listing.folder.path, new: place.new)
                }
                guard let m else { continue }
                batch.append(m)
                if batch.count >= chunk {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// The entry names of `dir` (not `.` and `..`), packed; nil when it cannot be read. More than
    /// `maxNameBytes` of names is refused (`ImportError.sourceNotFound` saying so).
    func names(in dir: String) throws -> PackedNames? {
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

    /// The message in file `cName` of `dir` (`name` as shown; `byName`: a path made of `name` opens it, else, its name
    /// not being UTF-8, only its bytes do, so it is opened here and read through the descriptor).
    private func message(in dir: Int32, _ dirPath: String, name: String, cName: UnsafePointer<CChar>, byName: Bool,
                         folder: String, new: Bool) -> SourceMessage? {
        var st = stat()
        // With prefetch, the file is opened first and looked at through its descriptor: the kernel walks its name
        // once, not for a `stat` and again for the `open`. Non-blocking and no controlling terminal, should the name
        // be something else than a file. A file that cannot be opened (its permissions) is looked at by name, listed,
        // and reported unreadable by its reader as before.
        let fd: Int32 = prefetchLimit > 0 || !byName ? openat(dir, cName, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1
        if fd >= 0 {
            guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                return nil
            }
        } else {
            guard fstatat(dir, cName, &st, 0) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        }
        let path = dirPath + "/" + name
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
        return SourceMessage(folder: folder, location: MaildirFilename.uniquePart(of: name),
                             content: opened.map { .opened($0, path: path) } ?? .file(path),
                             flags: flags, fallbackDate: mtime, size: Int(st.st_size))
    }
}
