/// A folder a sync skipped because the server refused it: a NO to its EXAMINE or to one of its own commands (no read
/// right, deleted by another client between the LIST and the EXAMINE, a server fault). The connection still works and
/// the account's other folders were synced; the next sync (a watch's next round) tries the folder again. Nothing is
/// recorded for it: a folder gone from the server is what the next LIST says, never a refusal alone.
public struct FolderSyncFailure: Sendable, Equatable, Encodable {
    /// The folder path.
    public var folder: String
    /// What failed, with the server's text, on one line without controls (sanitised), at most ``maxErrorScalars``.
    public var error: String

    /// The most Unicode scalars of ``error`` kept (a server's text can be long).
    public static let maxErrorScalars = 1_000

    /// The failure of `folder` with `error` (its description sanitised to one line and bounded).
    public init(folder: String, error: any Error) {
        self.folder = folder
        let text = TerminalSanitiser.line("\(error)")
        guard text.unicodeScalars.count > Self.maxErrorScalars else {
            self.error = text
            return
        }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: text.unicodeScalars.prefix(Self.maxErrorScalars))
        self.error = String(cut) + " …"
    }
}
