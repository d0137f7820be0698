/// A file in the store's `secrets/` that `MailStore.backup(to:includeSecrets:)` did not copy, and why (a symbolic
/// link, a FIFO, a folder: only regular files are copied, and none is followed elsewhere). Never its contents.
public struct SkippedSecretFile: Sendable, Equatable, CustomStringConvertible {
    /// The file's name in `secrets/` (an OAuth account's `NAME.oauth`).
    public var name: String
    /// Why it was not copied, and what to do.
    public var why: String

    /// A skipped file `name` and the reason `why`.
    public init(name: String, why: String) {
        self.name = name
        self.why = why
    }

    /// "secrets/NAME was not copied: WHY", as the backup's report says it.
    public var description: String { "secrets/\(name) was not copied: \(why)" }
}
