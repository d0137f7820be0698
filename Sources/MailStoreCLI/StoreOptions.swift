import ArgumentParser
import EventLog

/// The `--store` option shared by every command that opens a store.
public struct StoreOptions: ParsableArguments {
    /// The store folder; default $MAILSTORE_HOME, else ~/.local/share/mailstore.
    @Option(name: .long, help: ArgumentHelp("The store folder (default: $MAILSTORE_HOME, else ~/.local/share/mailstore).",
                                            valueName: "path"))
    public var store: String?

    public init() {}

    /// The resolved store path.
    public var path: String { StoreDirectory.resolve(explicit: store) }
}
