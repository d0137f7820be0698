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

    static let bookkeeping: Set<String> = ["maildirfolder", "subscriptions", "dovecot-uidlist", "dovecot-keywords",
                                           "dovecot.index", "dovecot.index.log", "dovecot.index.cache",
                                           "dovecot.list.index", "dovecot.list.index.log", "dovecot-uidvalidity",
                                           "courierimapuiddb", "courierimapkeywords", "courierimapacl"]

    /// Every folder of the tree with its messages (in file-name order).
    func scan() throws -> [(folder: Folder, messages: [SourceMessage])] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
            throw ImportError.sourceNotFound(root, "not a folder")
        }
        var out: [(folder: Folder, messages: [SourceMessage])] = []
        try walk(root, folder: "INBOX", out: &out, depth: 0)
        return out
    }

    private func walk(_ dir: String, folder: String, out: inout [(folder: Folder, messages: [SourceMessage])],
                      depth: Int) throws {
        guard depth < 64 else { return }
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: dir).sorted() } catch {
            throw ImportError.sourceNotFound(dir, error.localizedDescription)
        }
        var found: [SourceMessage] = []
        var subdirs: [(String, String)] = []
        for name in entries {
            let path = dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let kind = st.st_mode & S_IFMT
            if kind == S_IFDIR {
                if name == "cur" || name == "new" {
                    for file in (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] {
                        if let m = message(path + "/" + file, name: file, folder: folder, new: name == "new") { found.append(m) }
                    }
                } else if name == "tmp" || name.hasPrefix("..") {
                    continue
                } else if name.hasPrefix(".") {
                    // Maildir++: ".A.B" is folder A/B below the root.
                    let sub = name.dropFirst().split(separator: ".").joined(separator: "/")
                    if !sub.isEmpty { subdirs.append((path, depth == 0 ? sub : folder + "/" + sub)) }
                } else {
                    subdirs.append((path, folder == "INBOX" && depth == 0 ? name : folder + "/" + name))
                }
            } else if kind == S_IFREG {
                if name.hasPrefix(".") || MaildirSource.bookkeeping.contains(name) || name.hasPrefix("dovecot") { continue }
                if let m = message(path, name: name, folder: folder, new: false) { found.append(m) }
            }
        }
        if !found.isEmpty || depth == 0 || entries.contains("cur") {
            out.append((Folder(path: folder, role: FolderNaming.role(forPath: folder)), found))
        }
        for (path, sub) in subdirs {
            try walk(path, folder: sub, out: &out, depth: depth + 1)
        }
    }

    private func message(_ path: String, name: String, folder: String, new: Bool) -> SourceMessage? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        var flags = MaildirFilename.flags(of: name)
        if new { flags.removeAll { $0 == "\\Seen" } }
        let mtime = Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec))
        return SourceMessage(folder: folder, location: MaildirFilename.uniquePart(of: name), content: .file(path),
                             flags: flags, fallbackDate: mtime, size: Int(st.st_size))
    }
}
