import ArgumentParser
import Foundation
import MailStore

/// `mailstore notifications`: the recent notification decisions (`list`, the default), with `settings` and `follow`.
struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Show recent notification decisions: posted, badge-only or suppressed, why, and the content.",
        discussion: """
        Each new email a `sync --watch` brings is decided once, with the sync's time, and recorded as \
        NotificationDecided (`mailstore history --email ID` shows it). Posted ones are delivered by
        `sync --watch --notify-command`.
        """,
        subcommands: [NotificationsListCommand.self, NotificationSettingsCommand.self, NotificationsFollowCommand.self],
        defaultSubcommand: NotificationsListCommand.self)
}

/// `mailstore notifications [list]`: the recent decisions.
struct NotificationsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The recent notification decisions, newest first.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only this account's decisions.") var account: String?
    @Option(help: "At most this many decisions (newest first, 1 to 1000).") var limit = 50
    @Flag(help: "Print the decisions as JSON.") var json = false

    func validate() throws {
        let most = NotificationCoordinator.readLimit
        if limit < 1 || limit > most { throw ValidationError("--limit must be between 1 and \(most)") }
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            if let account { try AccountCheck.require(account, in: store) }
            try NotificationsCommand.show(store, account: account, json: json, limit: limit)
        }
    }
}

extension NotificationsCommand {
    /// Prints the recent decisions of `store` (also `project --view notifications`).
    static func show(_ store: MailStore, account: String?, json: Bool, limit: Int = 50) throws {
        let records = try NotificationCoordinator(store: store).recent(account: account, limit: limit)
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(JSONText.string(try e.encode(records.map { NotificationJSON($0) })))
            return
        }
        for r in records {
            let d = r.decision
            Terminal.print("\(d.outcome) (\(d.reason)) \(r.account) email \(d.emailID) thread \(d.threadID) [\(r.state)]: "
                           + CategorizeCommand.printable("\(d.readableTitle) - \(d.subtitle)"))
        }
        if records.isEmpty { print("(no notification decided yet)") }
    }
}

/// `mailstore notifications settings`: show or change the notification preferences.
struct NotificationSettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change the notification preferences (every change is an event).",
        discussion: """
        Defaults: every account and category on, no VIPs, no muted threads, quiet hours off (the preset is \
        22:00-07:00). Categories, quiet hours, VIPs and mutes are store-wide; --enable/--disable need --account.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The account to turn on or off.") var account: String?
    @Flag(help: "Turn the account's notifications on.") var enable = false
    @Flag(help: "Turn the account's notifications off.") var disable = false
    @Option(help: ArgumentHelp("A category on or off, e.g. promotions=off.", valueName: "NAME=on|off")) var category: [String] = []
    @Option(help: ArgumentHelp("Quiet hours in local time, e.g. 22:00-07:00.", valueName: "HH:MM-HH:MM")) var quietHours: String?
    @Flag(help: "Turn quiet hours off.") var noQuietHours = false
    @Flag(help: "Every preference back to its default.") var reset = false
    @Flag(help: "Print the preferences as JSON.") var json = false

    func validate() throws {
        if enable && disable { throw ValidationError("give --enable or --disable, not both") }
        if (enable || disable) && account == nil { throw ValidationError("--enable and --disable need --account A") }
        if quietHours != nil && noQuietHours { throw ValidationError("give --quiet-hours or --no-quiet-hours, not both") }
        if let q = quietHours, QuietHours(parsing: q) == nil { throw ValidationError("--quiet-hours takes HH:MM-HH:MM, e.g. 22:00-07:00") }
        for c in category { _ = try NotificationSettingsCommand.parseCategory(c) }
    }

    static func parseCategory(_ text: String) throws -> (String, Bool) {
        let parts = text.split(separator: "=", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "on" || parts[1] == "off" else {
            throw ValidationError("--category takes NAME=on|off, e.g. promotions=off")
        }
        guard CategorizeCommand.choices.contains(parts[0].lowercased()) else {
            throw ValidationError("unknown category '\(parts[0])': primary, social, promotions, updates or forums")
        }
        return (parts[0].lowercased(), parts[1] == "on")
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let c = NotificationCoordinator(store: store)
            if reset { try c.reset() }
            if let account, enable || disable {
                try AccountCheck.require(account, in: store)
                try c.setAccount(account, enabled: enable)
            }
            for text in category {
                let (name, on) = try NotificationSettingsCommand.parseCategory(text)
                try c.setCategory(name, enabled: on)
            }
            if let q = quietHours.flatMap(QuietHours.init(parsing:)) { try c.setQuietHours(q) }
            if noQuietHours { try c.setQuietHours(nil) }
            try NotificationSettingsCommand.print(try c.settings(), account: account, json: json)
            let leftOut = try c.leftOut()
            if leftOut.vips > 0 || leftOut.mutedThreads > 0 {
                Terminal.warning("""
                    left out at the caps (recorded past them by another build or at the same time as others): \(leftOut.vips) VIP add(s) \
                    (at most \(NotificationCoordinator.maxVIPs)), \(leftOut.mutedThreads) mute(s) (at most \(NotificationCoordinator.maxMutedThreads)); \
                    remove some and add them again
                    """)
            }
        }
    }

    static func print(_ s: NotificationSettings, account: String?, json: Bool) throws {
        struct Out: Encodable {
            var disabledAccounts: [String]; var categories: [String: Bool]; var quietHours: String?; var quietHoursPreset: String
            var vips: [String]; var mutedThreads: [String]; var account: String?; var accountEnabled: Bool?
        }
        let cats = Dictionary(uniqueKeysWithValues: CategorizeCommand.choices.map { name in
            (name, !s.disabledCategories.contains { $0.description == name })
        })
        let out = Out(disabledAccounts: s.disabledAccounts.sorted(), categories: cats, quietHours: s.quietHours?.text,
                      quietHoursPreset: QuietHours.preset.text, vips: s.vips.sorted(), mutedThreads: s.mutedThreads.sorted(),
                      account: account, accountEnabled: account.map { !s.disabledAccounts.contains($0) })
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Swift.print(JSONText.string(try e.encode(out)))
            return
        }
        if let account { Swift.print("account \(TerminalSanitiser.line(account)): " + (s.disabledAccounts.contains(account) ? "off" : "on")) }
        Swift.print("accounts off: " + (out.disabledAccounts.isEmpty ? "(none)" : out.disabledAccounts.joined(separator: ", ")))
        Swift.print("categories: " + CategorizeCommand.choices.map { "\($0)=\(cats[$0]! ? "on" : "off")" }.joined(separator: " "))
        Swift.print("quiet hours: " + (s.quietHours?.text ?? "off (preset \(QuietHours.preset.text))"))
        Swift.print("VIPs: \(out.vips.count), muted threads: \(out.mutedThreads.count)")
    }
}

/// `mailstore vip add|remove|list`.
struct VIPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vip",
        abstract: "Add, remove or list VIP senders (case-insensitive; a VIP's mail bypasses every notification filter).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "add, remove or list.") var verb: String
    @Argument(help: "The sender's address (add, remove).") var address: String?
    @Flag(help: "Print the list as JSON.") var json = false

    func validate() throws {
        guard ["add", "remove", "list"].contains(verb) else { throw ValidationError("use `vip add ADDRESS`, `vip remove ADDRESS` or `vip list`") }
        if verb != "list" && address == nil { throw ValidationError("`vip \(verb)` needs an ADDRESS") }
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: verb == "list")
            let c = NotificationCoordinator(store: store)
            switch verb {
            case "add":
                // One line, the address kept (the list is `vip list`: 1,000 lines an add was a lot).
                Terminal.print("added VIP \(CategorizeCommand.printable(try c.addVIP(address!)))")
            case "remove":
                try c.removeVIP(address!)
                Terminal.print("removed VIP \(CategorizeCommand.printable(try NotificationCoordinator.vipAddress(address!)))")
            default:
                let vips = try c.settings().vips.sorted()
                if json {
                    Swift.print(JSONText.string(try JSONEncoder().encode(vips)))
                } else {
                    for v in vips { Terminal.print(CategorizeCommand.printable(v)) }
                    if vips.isEmpty { Swift.print("(no VIP)") }
                }
                let leftOut = try c.leftOut().vips
                if leftOut > 0 {
                    Terminal.warning("""
                        \(leftOut) VIP add(s) were left out: recorded when \(NotificationCoordinator.maxVIPs) VIPs were kept already \
                        (the most; by another build or at the same time as others); remove some and add them again
                        """)
                }
            }
        }
    }
}

/// `mailstore mute THREAD`.
struct MuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mute",
                                                    abstract: "Mute a thread: no notification for its new mail; its showing ones are withdrawn.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The thread id.") var thread: String

    func run() throws {
        try CLIExit.run {
            try NotificationCoordinator(store: try storeOptions.open()).mute(thread: thread)
            Swift.print("muted thread \(CategorizeCommand.printable(thread))")
        }
    }
}

/// `mailstore unmute THREAD`.
struct UnmuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unmute", abstract: "Unmute a thread.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The thread id.") var thread: String

    func run() throws {
        try CLIExit.run {
            try NotificationCoordinator(store: try storeOptions.open()).unmute(thread: thread)
            Swift.print("unmuted thread \(CategorizeCommand.printable(thread))")
        }
    }
}
