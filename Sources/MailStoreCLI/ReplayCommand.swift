import ArgumentParser
import Foundation
import MailStore

/// `mailstore replay`: rebuilds views from the log, blue/green.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild the views from the log (blue/green: the old views serve until the new ones are ready).",
        discussion: "Killed midway, the old views are intact and a rerun starts clean.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("Only this view: \(ViewName.allValueStrings.joined(separator: ", ")).", valueName: "view"))
    var view: ViewName?

    @Flag(name: .long, help: "No progress bar.")
    var quiet = false

    func run() throws {
        try CLIExit.run {
            // Its notes are said (a damaged views file met, and every view built instead of the one asked for).
            let store = try MailStore.open(at: storeOptions.path, notice: { Terminal.note($0) })
            let bar = ProgressBar("replaying", total: nil, quiet: quiet)
            let start = Date()
            let events = try store.replay(view: view) { done, total in bar.update(done, total: total) }
            bar.finish()
            let secs = Date().timeIntervalSince(start)
            let rate = secs > 0 ? Double(events) / secs : 0
            print("Rebuilt \(view?.rawValue ?? "all views") from \(Counted.of(events, "event")) in \(String(format: "%.2f", secs))s (\(String(format: "%.0f", rate)) events/s)")
        }
    }
}
