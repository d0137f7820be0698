import ArgumentParser
import Foundation
import MailStore

/// `sync --watch`'s notification options: which command shows a notification, which withdraws one, and
/// which folder role the user is looking at.
struct SyncNotifyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("With --watch: run CMD (via /bin/sh) for each posted notification, its JSON on stdin.", valueName: "CMD"))
    var notifyCommand: String?
    @Option(help: ArgumentHelp("With --watch: run CMD for each withdrawn notification, its JSON on stdin.", valueName: "CMD"))
    var withdrawCommand: String?
    @Option(help: ArgumentHelp("With --watch: the folder role the user is looking at (inbox, archive, ...): its new mail gives no banner.",
                               valueName: "ROLE"))
    var activeFolder: String?
    @Flag(help: "With --watch: decide as a background sync (mail up to 1 hour old may notify, instead of 5 minutes).")
    var background = false
    @Flag(help: """
        With --watch: decide the mail the watch's first sync finds like any later sync's (recency still applies) \
        instead of suppressing it (for a watch a supervisor restarts); the account's first sync is still suppressed.
        """)
    var notifyOnStart = false

    func validate(watch: Bool) throws {
        if !watch && (notifyCommand != nil || withdrawCommand != nil || activeFolder != nil || background || notifyOnStart) {
            throw ValidationError("--notify-command, --withdraw-command, --active-folder, --background and --notify-on-start go with --watch")
        }
        if let activeFolder, SyncNotifyOptions.role(activeFolder) == nil {
            throw ValidationError("unknown folder role '\(activeFolder)': inbox, sent, drafts, trash, junk, archive, all, flagged, important")
        }
    }

    static func role(_ name: String) -> FolderRole? { FolderRole.allCases.first { $0.description == name.lowercased() } }

    /// The notifier for a watch of `account`; nil commands: decisions are still recorded, nothing is run.
    func notifier(store: MailStore, account: String) throws -> WatchNotifier {
        try WatchNotifier(store: store, account: account, notifyCommand: notifyCommand, withdrawCommand: withdrawCommand,
                          activeFolder: activeFolder.flatMap(SyncNotifyOptions.role), background: background,
                          notifyOnStart: notifyOnStart)
    }
}
