/// What an import did.
public struct ImportSummary: Sendable, Equatable, Encodable {
    /// Messages found in the source: an mbox's messages, or the entries of the Maildir's `cur/` and `new/` folders as
    /// their listings met them (each one imported, already present, too large, unreadable, vanished or skipped).
    public var found = 0
    /// Messages appended as new `EmailReceived` events.
    public var imported = 0
    /// Messages already in the log (same source location): nothing appended.
    public var alreadyPresent = 0
    /// Messages imported with parser warnings (malformed in some way).
    public var malformed = 0
    /// How often each warning occurred, by its code.
    public var warnings: [String: Int] = [:]
    /// Messages that could not be read at all (the file vanished or is unreadable), with the reason.
    public var unreadable: [String] = []
    /// Messages skipped because they are over the size limit (`Importer.Options.maxMessageBytes`), with
    /// their location and size: nothing of them is stored.
    public var tooLarge: [String] = []
    /// Maildir message files gone between the listing and their reading and not found again under their unique name
    /// in `cur/` or `new/` (deleted, or moved to another folder, while the import ran): `FOLDER/UNIQUE`, at most
    /// `maxListed` of them; `vanishedCount` counts them all. A file renamed meanwhile (its flags changed) is found
    /// again and imported.
    public var vanished: [String] = []
    /// How many message files vanished.
    public var vanishedCount = 0
    /// What was skipped, with the path and why: an entry of `cur/` or `new/` that is not a message file (a FIFO, a
    /// socket, a folder, a dangling symbolic link), an mbox file lying in a Maildir folder, an mbox's empty message
    /// (two From_ lines in a row), a folder nested deeper than `MaildirSource.maxDepth` or that cannot be read (not
    /// walked), a `cur/` or `new/` that cannot be listed or went away while the import ran (its messages not read); at most
    /// `maxListed`, `skippedCount` counts them all.
    /// Bookkeeping (`maildirsize`, `dovecot*`, dot-files, `.notmuch/`) is left out without a word.
    public var skipped: [String] = []
    /// How many entries were skipped (`skipped`).
    public var skippedCount = 0
    /// Folders found.
    public var folders = 0
    /// Raw bytes read.
    public var bytes = 0
    /// Seconds taken.
    public var seconds = 0.0

    /// The most lines `vanished` and `skipped` each hold.
    public static let maxListed = 1_000

    /// Creates an empty summary.
    public init() {}

    /// Counts a message file that vanished (`vanished`).
    mutating func addVanished(_ line: String) {
        vanishedCount += 1
        if vanished.count < ImportSummary.maxListed { vanished.append(line) }
    }

    /// Counts an entry skipped (`skipped`).
    mutating func addSkipped(_ line: String) {
        skippedCount += 1
        if skipped.count < ImportSummary.maxListed { skipped.append(line) }
    }
}
