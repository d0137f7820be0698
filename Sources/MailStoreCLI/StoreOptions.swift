import ArgumentParser
import EventLog
import MailStore
import Views

/// The `--store` option shared by every command that opens a store.
public struct StoreOptions: ParsableArguments {
    /// The store folder; default $MAILSTORE_HOME, else ~/.local/share/mailstore.
    @Option(name: .long, help: ArgumentHelp("The store folder (default: $MAILSTORE_HOME, else ~/.local/share/mailstore).",
                                            valueName: "path"))
    public var store: String?

    public init() {}

    /// The resolved store path.
    public var path: String { StoreDirectory.resolve(explicit: store) }

    /// Opens the store and its views (rebuilding any that need it, with a note on stderr).
    func openWithViews(readOnly: Bool = false) throws -> (MailStore, ViewStore) {
        let store = try MailStore.open(at: path, readOnly: readOnly)
        return (store, try store.openViews(notice: Terminal.note))
    }
}
