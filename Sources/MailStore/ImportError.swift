/// Why an import could not start or continue. Malformed messages are not errors: they are imported
/// as well as they can be and counted in the summary.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The Maildir folder or mbox file is not there or not readable.
    case sourceNotFound(String, String)
    /// A message file could not be read.
    case unreadable(String, String)
    /// The account name cannot name an account: empty, over 1,024 bytes, or with control, format or line/paragraph separator characters
    /// (the name as given, cut to 64 characters).
    case invalidAccount(String)
    /// The mbox file is locked by another program (a mail client or delivery agent writing it) for longer than the
    /// import waits (`Importer.Options.mboxLockWait`): the path and what holds it.
    case mboxLocked(String, String)
    /// The folder given for an mbox cannot name a folder: empty (the name as given).
    case invalidFolder(String)
    /// The account name is an IMAP account's, configured now or once (removed since): its folders mirror its server,
    /// and mail imported into them would pass for the server's (listed, counted, its actions "applied" though no server
    /// holds it).
    case accountIsConfigured(String)
    /// The file given as an mbox is compressed (by its first bytes): the path, the format (`gzip`, `bzip2`, `xz`,
    /// `zstd`) and a command that writes its content to a file that can be imported. Nothing is stored.
    case compressedMbox(path: String, format: String, command: String)
    /// The file given as an mbox does not begin with a From_ line (after a UTF-8 byte-order mark and blank lines):
    /// the path, what it begins with (safe for a terminal) and what to do. Nothing is stored.
    case notAnMbox(path: String, begins: String, advice: String)
    /// The account name differs from an IMAP account's (configured now or once) only by case, width or Unicode form
    /// (NFKC, case-folded): the name given and the one it is like.
    case accountNameLike(name: String, existing: String)

    public var description: String {
        switch self {
        case .sourceNotFound(let p, let why): "cannot read \(p): \(why)"
        case .unreadable(let p, let why): "cannot read message \(p): \(why)"
        case .invalidAccount(let name): "--account \"\(name)\" cannot name an account: give 1 to 1,024 bytes without control characters, not `*` (every account together)"
        case .mboxLocked(let p, let why): "cannot import \(p): it is locked by another program (\(why)); try again once that program is done with it (a stale \(p).lock left by a crashed program may be removed by hand)"
        case .invalidFolder(let name): "--folder \"\(name)\" cannot name a folder: give a non-empty name"
        case .compressedMbox(let p, let format, let command):
            "cannot import \(p): it is \(format)-compressed, not an mbox; decompress it first (`\(command)`) and import that"
        case .notAnMbox(let p, let begins, let advice):
            "cannot import \(p): not an mbox: it begins with \(begins), not a From_ line; \(advice)"
        case .accountIsConfigured(let name):
            "--account \"\(name)\" is an IMAP account (configured now or once): its folders mirror its server, and imported mail "
                + "would pass for the server's; import under another name (e.g. \"\(name)-archive\")"
        case .accountNameLike(let name, let existing):
            "--account \"\(name)\" is too like the IMAP account name \"\(existing)\" (they differ only by case, width or Unicode form); "
                + "import under another name"
        }
    }
}

extension ImportError {
    /// Whether `name` can name the account an import files its mail under: 1 to 1,024 bytes (above LMDB's key
    /// limit, which the views handle), no control, format (bidi, zero-width) or line/paragraph separator characters. `account add` asks more
    /// (1-64 letters, digits and . _ @ + -); an import of local mail takes any readable name but `*`, as it always did,
    /// but not one that would ride in every event's envelope at any length.
    static func checkAccount(_ name: String) throws(ImportError) {
        // `*` is the views' key of every account together (the unified inbox and badge): an account of that name
        // would mix into it.
        guard !name.isEmpty, name != "*", name.utf8.count <= 1_024,
              !name.unicodeScalars.contains(where: { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) else {
            throw .invalidAccount(name.count > 64 ? String(name.prefix(64)) + "…" : name)
        }
    }
}
