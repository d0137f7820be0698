import ArgumentParser
import MailStore

/// The `--store` option shared by every command that opens a store.
package struct StoreOptions: ParsableArguments {
    /// The store folder; default $MAILSTORE_HOME, else $XDG_DATA_HOME/mailstore, else ~/.local/share/mailstore.
    @Option(name: .long, help: ArgumentHelp("The store folder (default: $MAILSTORE_HOME, else $XDG_DATA_HOME/mailstore, else ~/.local/share/mailstore).",
                                            valueName: "path"))
    package var store: String?

    package init() {}

    package func validate() throws {
        // An empty path (an unset shell variable: `--store "$DIR"`) is a mistake, not the default store.
        if let store, store.isEmpty { throw ValidationError("--store needs a path (leave it out for the default store)") }
    }

    /// The resolved store path.
    package var path: String { StoreDirectory.resolve(explicit: store) }

    /// Opens the store; its views open when first read (rebuilding any that need it, with a note on stderr).
    /// A read-only store is opened for lookups: its commands read the log's head and a few records, not scans (see
    /// `MailStore.open(at:readOnly:bulk:lookups:notice:)`); a rebuild of the views scans it with read-ahead all the same.
    func open(readOnly: Bool = false) throws -> MailStore {
        try MailStore.open(at: path, readOnly: readOnly, lookups: readOnly, notice: { Terminal.note($0) })
    }
}
