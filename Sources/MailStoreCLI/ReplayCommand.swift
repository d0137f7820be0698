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
            let start = ContinuousClock.now
            let events = try store.replay(view: view) { done, total in bar.update(done, total: total) }
            bar.finish()
            let secs = ProgressBar.seconds(ContinuousClock.now - start)
            let rate = secs > 0 ? Double(events) / secs : 0
            print("Rebuilt \(view?.rawValue ?? "all views") from \(Counted.of(events, "event")) in \(String(format: "%.2f", secs))s (\(String(format: "%.0f", rate)) events/s)")
            ReplayCommand.sayLeftOut(try store.quarantinedEvents(limit: ReplayCommand.leftOutRead), newer: try store.newerEventsNote())
        }
    }

    /// The most left-out events read to say so (the count says "or more" past it).
    static let leftOutRead = 1_000

    /// Says the events the rebuilt views lack: those that could not be read (`*`: damage, or a newer build's, whose
    /// note `newer` is) and those a view could not fold (a bug), each with its first sequence and what failed.
    static func sayLeftOut(_ events: [QuarantinedEvent], newer: String?) {
        let unread = events.filter { $0.view == "*" }
        let unfolded = events.filter { $0.view != "*" }
        let more = events.count >= leftOutRead ? " (of the first \(leftOutRead) read)" : ""
        if let first = unread.first {
            Terminal.warning("\(Counted.of(unread.count, "event"))\(more) could not be read and are left out of the views (the first at "
                             + "sequence \(first.sequence): \(first.error)): `mailstore verify` checks the log for damage"
                             + (newer.map { "; \($0)" } ?? ""))
        }
        if let first = unfolded.first {
            Terminal.warning("\(Counted.of(unfolded.count, "event"))\(more) could not be folded into a view and are left out of it (the "
                             + "first at sequence \(first.sequence), view \(first.view): \(first.error)): a bug in mailstore; "
                             + "`mailstore stats` lists them, and a replay by a build that fixes it folds them")
        }
    }
}
