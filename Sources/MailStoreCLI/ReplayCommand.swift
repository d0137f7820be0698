import ArgumentParser
import Foundation
import MailStore
import SearchIndex
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
        // SEARCH-VIEW: "search" is not (yet) in ViewCatalog; the lead moves it there with the generations machinery.
        if let view, !ViewCatalog.names.contains(view), view != "search" {
            throw ValidationError("unknown view '\(view)'; views: \((ViewCatalog.names + ["search"]).joined(separator: ", "))")
        }
    }

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path)
            let bar = ProgressBar("replaying", total: nil, quiet: quiet)
            let start = Date()
            var events: UInt64 = 0
            if view != "search" {
                _ = try ViewStore.replay(store: store.directory, log: store.log, views: view.map { [$0] }) { done, total in
                    events = done
                    bar.update(done, total: total)
                }
            }
            // SEARCH-VIEW: the search index is rebuilt here, beside the LMDB views (built aside, then renamed
            // over the old file); the lead moves this into the generations machinery.
            if view == nil || view == "search" {
                try SearchIndex.rebuild(folder: SearchCommand.folder(store.directory), log: store.log) { done, total in
                    if view == "search" { events = done }
                    bar.update(done, total: total)
                }
            }
            bar.finish()
            let secs = Date().timeIntervalSince(start)
            let rate = secs > 0 ? Double(events) / secs : 0
            print("Rebuilt \(view ?? "all views") from \(events) events in \(String(format: "%.2f", secs))s (\(String(format: "%.0f", rate)) events/s)")
        }
    }
}
