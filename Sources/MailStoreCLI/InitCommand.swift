import ArgumentParser
import MailStore

/// `mailstore init`: creates a new store.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a new, empty store (folders 0700, files 0600).")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.create(at: storeOptions.path)
            print("Initialized empty mailstore in \(store.directory.path)")
        }
    }
}
