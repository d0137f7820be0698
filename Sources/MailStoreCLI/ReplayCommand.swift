import ArgumentParser
import Foundation
import MailStore
import Views

/// `mailstore replay`: rebuilds views from the log, blue/green.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild the views from the log (blue/green: the old views serve until the new ones are ready).",
        discussion: "Killed midway, the old views are intact and a rerun starts clean.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("Only this view.", valueName: "view"))
    var view: String?

    @Flag(name: .long, help: "No progress bar.")
    var quiet = false

    func validate() throws {
        if let view, !ViewCatalog.names.contains(view) {
            throw ValidationError("unknown view '\(view)'; views: \(ViewCatalog.names.joined(separator: ", "))")
        }
    }

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path)
            let bar = ProgressBar("replaying", total: nil, quiet: quiet)
            let start = Date()
            var events: UInt64 = 0
            _ = try ViewStore.replay(store: store.directory, log: store.log, views: view.map { [$0] }, notice: Terminal.note) { done, total in
                events = done
                bar.update(done, total: total)
            }
            bar.finish()
            let secs = Date().timeIntervalSince(start)
            let rate = secs > 0 ? Double(events) / secs : 0
            print("Rebuilt \(view ?? "all views") from \(events) events in \(String(format: "%.2f", secs))s (\(String(format: "%.0f", rate)) events/s)")
        }
    }
}
