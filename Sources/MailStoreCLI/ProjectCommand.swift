import ArgumentParser
import Foundation
import MailStore

/// `mailstore project`: shows a view.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Show a view: \(ProjectCommand.viewNames.joined(separator: ", ")).",
        discussion: """
        The views are folded from the log (new events first). --as-of shows a view as it was at a sequence \
        number or time, read without touching the live views: the views' history gives them at the end of the last \
        window (at most 8,192 events) at or before that point, and the events after it are folded in memory into \
        only the view shown (and the folders view, which names the accounts).
        """)

    @OptionGroup var storeOptions: StoreOptions

    // Parsed from its name (not as `ViewName` itself, whose help would list `search`, which `project` refuses).
    @Option(name: .long, help: ArgumentHelp("The view: \(ProjectCommand.viewNames.joined(separator: ", ")).", valueName: "view"),
            transform: { name in
                guard let v = ViewName(rawValue: name) else {
                    throw ValidationError("unknown view '\(name)'; the views: \(ProjectCommand.viewNames.joined(separator: ", "))")
                }
                return v
            })
    var view: ViewName

    @Option(name: .long, help: ArgumentHelp("The account.", valueName: "account"))
    var account: String?

    @Flag(name: .long, help: "Every account (the unified inbox for threads).")
    var unified = false

    @Option(name: .long, help: ArgumentHelp("The folder (default INBOX).", valueName: "folder"))
    var folder: String?

    @Option(name: .long, help: ArgumentHelp("Only this category: primary, social, promotions or updates.", valueName: "category"))
    var category: String?

    // Unconditional: a page ending at mail dated before 1970 prints a cursor starting with '-' (`-1000000.3cd7…`),
    // which must be taken as the value, not as an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Continue after this cursor (from a previous page).", valueName: "cursor"))
    var cursor: String?

    /// The most rows of one page (`--limit`): a page is read and held whole.
    static let maxLimit = 10_000

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Rows per page (default 25; at most 10,000).", valueName: "n"))
    var limit: Int = FetchThreadsUseCase.defaultPageSize

    @Flag(name: .long, help: "Every page.")
    var all = false

    @Option(name: .customLong("as-of"), parsing: .unconditional, help: ArgumentHelp("Show the view as it was at this sequence number or time (ISO 8601, or as log --since reads it: 2026-12-03 10:00, 2h).", valueName: "seq|time"))
    var asOf: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func validate() throws {
        if view == .search { throw ValidationError("the search view is read with `mailstore search QUERY`") }
        if unified && account != nil { throw ValidationError("give --account or --unified, not both") }
        if !(1...ProjectCommand.maxLimit).contains(limit) { throw ValidationError("--limit must be between 1 and \(ProjectCommand.maxLimit)") }
        if let category, AICategory(name: category) == nil || category.lowercased() == "uncategorized" || category.lowercased() == "forums" {
            throw ValidationError("unknown category '\(category)': primary, social, promotions or updates (forums and uncategorized threads are under All)")
        }
        if let cursor {
            guard view == .threads || view == .dedup || view == .contacts else {
                throw ValidationError("--cursor pages the threads, dedup and contacts views only")
            }
            let valid = switch view {
            case .dedup: DedupCursor.key(cursor) != nil
            case .contacts: ContactsCursor(cursor) != nil
            default: ThreadCursor(cursor) != nil
            }
            if !valid { throw ValidationError("malformed --cursor '\(TerminalSanitiser.line(String(cursor.prefix(200))))'") }
        }
    }

    func run() throws {
        try CLIExit.run {
            // The log is only read, and by lookups (the views are folded and written in their own environment).
            var store = try MailStore.open(at: storeOptions.path, readOnly: true, lookups: true, notice: { Terminal.warning($0) })
            // Checked on the live views: an account that exists now shows what it had at an earlier point (maybe nothing).
            if let account, view != .accounts { try AccountCheck.require(account, in: store) }
            if let asOf {
                store = try store.asOf(asOf, views: ProjectCommand.viewsRead(by: view).map(\.rawValue))
                if !json, let seq = store.snapshotSequence { Terminal.note(ProjectCommand.asOfNote(asOf, seq)) }
            }
            try show(store)
        }
    }

    /// The views that showing `view` reads, in any of its forms: all that `--as-of` folds (the folders view
    /// names the accounts with mail and their folders, the accounts view those configured: `defaultAccount`).
    static func viewsRead(by view: ViewName) -> [ViewName] {
        let read: [ViewName] = switch view {
        case .folders: [.folders, .unread, .drafts, .outbox]
        case .unread: [.folders, .unread, .drafts, .outbox, .threads]  // the category counts are the threads view's
        case .drafts: [.drafts, .outbox, .folders]
        default: [view, .folders]
        }
        return read.contains(.accounts) ? read : read + [.accounts]
    }

    /// Prints the view asked for (every view has its own form).
    func show(_ store: MailStore) throws {
        switch view {
        case .threads: try showThreads(store)
        case .unread: try showUnread(store)
        case .folders: try showFolders(store)
        case .outbox: try showOutbox(store)
        case .dedup: try showDedup(store)
        case .accounts: try showAccounts(store)
        case .sync: try showSyncState(store)
        case .actions: try showActions(store)
        case .drafts: try showDrafts(store)
        case .contacts: try showContacts(store)
        case .notifications: try NotificationsCommand.show(store, account: account, json: json)
        case .search: throw ValidationError("the search view is read with `mailstore search QUERY`")
        }
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(JSONText.string(try e.encode(value)))
    }

    /// The accounts a view shows: the one named (an account removed now too: its mail stays in the log and the views,
    /// read by name), with `--unified` every account with mail but those removed now, else the default one.
    func accountsToShow(_ store: MailStore) throws -> [String] {
        if let account { return [account] }
        if unified { return try store.unifiedAccountNames() }
        return [try ProjectCommand.defaultAccount(store)]
    }

    func showUnread(_ store: MailStore) throws {
        let useCase = FetchThreadsUseCase(store: store)
        struct Row: Encodable { var folder: String; var counts: [String: Int] }
        struct Report: Encodable {
            var account: String; var badge: Int; var total: [String: Int]; var folders: [Row]
            /// Spec E-02: false when no categorizer is configured (the client hides the category tabs).
            var categoriesAvailable: Bool
        }
        let tabs = CategorizeEmailUseCase(store: store).isAvailable
        func named(_ c: [AICategory?: Int]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: c.map { ($0.key?.description ?? "all", $0.value) })
        }
        var reports: [Report] = []
        let accounts = try accountsToShow(store)
        var missing: Error?
        for a in accounts {
            // A folder named is looked up (a mistyped one is an error, as for the thread list); over several accounts
            // those without it show no row for it, and it is an error only when none has it.
            var folderIDs: [String]
            if let folder {
                do { folderIDs = [try useCase.folderPath(accountId: a, folderId: folder)] } catch ThreadListError.folderNotFound(let id) {
                    missing = missing ?? ThreadListError.folderNotFound(id: id)
                    folderIDs = []
                } catch ThreadListError.folderHoldsNoMail(let id) {
                    // A name with no mailbox (a ghost parent): said so, rather than a row of zeros.
                    missing = ThreadListError.folderHoldsNoMail(id: id)
                    folderIDs = []
                }
            } else {
                folderIDs = try useCase.fetchFolders(accountId: a).filter { !$0.isVirtual && $0.selectable }.map(\.id)
            }
            let rows = try folderIDs.map { Row(folder: $0, counts: named(try useCase.fetchUnreadCounts(accountId: a, folderId: $0))) }
            let total = named(try useCase.fetchUnreadCounts(accountId: a))
            reports.append(Report(account: a, badge: try useCase.fetchBadgeCount(accountId: a), total: total, folders: rows,
                                  categoriesAvailable: tabs))
        }
        if let missing, reports.allSatisfy({ $0.folders.isEmpty }) { throw missing }
        // Over several accounts, those without the folder named are left out.
        if folder != nil && reports.count > 1 { reports.removeAll { $0.folders.isEmpty } }
        if json {
            struct Unified: Encodable { var accounts: [Report]; var badge: Int }
            if unified { try printJSON(Unified(accounts: reports, badge: try useCase.fetchBadgeCount())) }
            else { try printJSON(reports[0]) }
            return
        }
        let cats = ["all", "primary", "social", "promotions", "updates", "forums", "uncategorized"]
        for r in reports {
            print("Account \(TerminalSanitiser.line(r.account)): badge \(r.badge) (unread in Inbox-role folders); category tabs "
                  + (r.categoriesAvailable ? "shown" : "hidden (no categorizer: MAILSTORE_CATEGORIZER=off)"))
            print(ThreadRow.fit("folder", 28) + cats.map { ThreadRow.fit($0, 13) }.joined())
            for row in r.folders + [Row(folder: "(whole account)", counts: r.total)] {
                let line = ThreadRow.fit(row.folder, 28) + cats.map { ThreadRow.fit(String(row.counts[$0] ?? 0), 13) }.joined()
                print(String(line.reversed().drop { $0 == " " }.reversed()))
            }
        }
        if unified { print("Badge over all accounts: \(try useCase.fetchBadgeCount())") }
    }

    func showFolders(_ store: MailStore) throws {
        let useCase = FetchThreadsUseCase(store: store)
        var all: [FolderSummary] = []
        for a in try accountsToShow(store) { all += try useCase.fetchFolders(accountId: a) }
        if json { return try printJSON(all) }
        // A subfolder's name is indented under its folder's; the path (what `--folder` takes) follows where it is not
        // the name shown, or where the terminal would not show it as it is (then quoted for the shell, `ShellWord`); the
        // virtual Starred folder's `\Starred` is quoted too (unquoted, the shell reads `Starred`, an ordinary folder's name),
        // and any path with a backslash (a server's own `\Starred`).
        for f in all {
            let name = String(repeating: "  ", count: min(f.depth, 8)) + f.name
            let shown = TerminalSanitiser.line(f.id)
            let path = f.isVirtual || shown != f.id || f.id.first == " " || f.id.last == " " || f.id.contains("\\")
                || ShellWord.quoted(f.id).hasPrefix("$'")
                ? "  " + ShellWord.quoted(f.id)
                : f.id.caseInsensitiveCompare(f.name) == .orderedSame ? "" : "  " + shown
            let badge = f.badge.map(String.init) ?? "—"
            // A name that holds no mail, listed above its subfolders: `parent` for its role.
            print("\(ThreadRow.fit(f.accountId, 12)) \(ThreadRow.fit(name, 28)) \(ThreadRow.fit(f.selectable ? f.role.description : "parent", 9)) "
                  + (path.isEmpty ? badge : ThreadRow.fit(badge, 6) + path))
        }
    }

    func showOutbox(_ store: MailStore) throws {
        let useCase = FetchThreadsUseCase(store: store)
        struct Report: Encodable { var account: String; var badge: Int; var emails: [OutboxEmail] }
        var reports: [Report] = []
        for a in try accountsToShow(store) {
            let (emails, badge) = try useCase.fetchOutboxEmails(accountId: a)
            reports.append(Report(account: a, badge: badge, emails: emails))
        }
        if json { return try printJSON(unified ? reports : [reports[0]]) }
        for r in reports {
            print("Outbox of \(TerminalSanitiser.line(r.account)): \(r.badge) queued or failed")
            for e in r.emails {
                let detail = e.sendState == "failed" ? (e.failureReason ?? "") + OutboxListCommand.when(e) : (e.dueAt.map { "due " + OutboxListCommand.shown($0, e) } ?? "")
                print("  \(ThreadRow.fit(e.sendState, 8)) \(ThreadRow.fit(e.id, 18)) \(ThreadRow.fit(e.subject, 40)) \(detail)  [\(e.actions.joined(separator: ", "))]")
            }
            if r.emails.isEmpty { print("  (empty)") }
        }
    }

    /// The messages with more than one copy, written as they are read (one stretch of the view in memory); the
    /// JSON is the array encoding them at once would give.
    /// Shows a page of `--limit` messages with more than one copy (`more: --cursor X` on stderr when more
    /// follow), or with `--all` every one; written as read, a page of at most 4,096 messages read at a time.
    /// The cursor is the hex of the last row's key in the dedup view (account and Message-ID).
    func showDedup(_ store: MailStore) throws {
        struct Message: Encodable { var account: String; var messageId: String; var copies: [[String: String]] }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = OutputBuffer()
        var shown = 0
        func show(_ account: String, _ mid: String, _ copies: [DedupCopy]) throws {
            if json {
                if shown > 0 { out.write(",") }
                out.write(JSONText.data(try e.encode(Message(account: account, messageId: mid,
                                                             copies: copies.map { ["emailId": $0.emailID, "folder": $0.folder] }))))
            } else {
                out.write(TerminalSanitiser.line("<\(mid)> \(copies.count) copies: "
                    + copies.map { "\($0.emailID) in \($0.folder)" }.joined(separator: ", ")) + "\n")
            }
            shown += 1
        }
        var accounts = try accountsToShow(store)
        var after: [UInt8]?
        if let cursor {
            guard let key = DedupCursor.key(cursor), let account = DedupCursor.account(of: key), accounts.contains(account) else {
                throw ValidationError("--cursor is not a dedup cursor of \(accounts.count == 1 ? "this account" : "these accounts")")
            }
            accounts = Array(accounts.drop { $0 != account })
            after = key
        }
        if json { out.write("[") }
        var next: [UInt8]?
        for a in accounts {
            if all {
                try store.forEachDuplicate(account: a) { try show(a, $0, $1) }
                continue
            }
            let page = try store.duplicatePage(account: a, after: after, limit: limit - shown)
            after = nil
            for (mid, copies) in page.found { try show(a, mid, copies) }
            next = page.next
            if shown == limit { break }
        }
        if json { out.write("]\n") }
        out.flush()
        if let next { Terminal.note("more: --cursor \(DedupCursor.text(next))") }
        if !json && shown == 0 { print("(no message has more than one copy)") }
    }

    /// Shows one page of threads, or with `--all` every page, written as each page is read: memory holds one
    /// page (`--limit` rows), whatever the folder's size (the pages gathered before printing had taken a
    /// 1M-message store's `--all --json` to 860 MB). The JSON of `--all` is the same object a single page has,
    /// with every thread, byte for byte what encoding them at once gives.
    func showThreads(_ store: MailStore) throws {
        let useCase = FetchThreadsUseCase(store: store)
        let cat = category.flatMap { AICategory(name: $0) }
        let accountName = try account ?? (unified ? nil : ProjectCommand.defaultAccount(store))
        var next = cursor.flatMap { ThreadCursor($0) }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let width = Terminal.stdoutIsTTY ? Terminal.width : 120
        let times = RelativeTime()
        var out = OutputBuffer()
        var shown = 0
        var last: ThreadPage?
        if json && all { out.write(#"{"hasMore":false,"nextCursor":null,"threads":["#) }
        repeat {
            let page: ThreadPage
            if let accountName {
                page = try useCase.fetchThreads(accountId: accountName, folderId: folder ?? "INBOX", category: cat,
                                                cursor: next, pageSize: limit)
            } else {
                page = try useCase.fetchUnifiedThreads(folderId: folder, category: cat, cursor: next, pageSize: limit)
            }
            if json && !all {
                print(JSONText.string(try e.encode(page)))
                return
            }
            for t in page.threads {
                if json {
                    if shown > 0 { out.write(",") }
                    out.write(JSONText.data(try e.encode(t)))
                } else {
                    out.write(ThreadRow.line(t, width: width, times: times) + "\n")
                }
                shown += 1
            }
            last = page
            next = page.nextCursor
        } while all && next != nil
        if json {
            out.write("]}\n")
            out.flush()
            return
        }
        out.flush()
        if let last, last.hasMore, let c = last.nextCursor {
            Terminal.note("more: --cursor \(c)")
        }
        if shown == 0 { Terminal.note("(no threads)") }
    }

    /// The note naming the point `--as-of requested` was read at (`seq`), saying so when a sequence past the log's
    /// last was asked for (it is read at the last).
    static func asOfNote(_ requested: String, _ seq: UInt64) -> String {
        if let n = UInt64(requested), n > seq { return "(as of sequence \(seq), the log's last: \(n) is past it)" }
        return "(as of sequence \(seq))"
    }

    /// The views `project` shows: every view but `search`, which `mailstore search` reads (`replay --view search`
    /// rebuilds it).
    static let viewNames = ViewName.projected.map(\.rawValue)

    /// The account to show when none is given: the only one there is, with mail in the views or configured (`local`
    /// when none); with several, a usage error naming them (`unifiedToo`: the command also takes `--unified`). An
    /// account added but not synced yet counts: the thread list had shown the other account's, exit 0, until it was.
    /// An account removed now does not, while any other is left (it is read by name: `--account`).
    static func defaultAccount(_ store: MailStore, unifiedToo: Bool = true) throws -> String {
        let known = Set(try store.accountNames()).union(try store.accounts().map(\.name))
        let shown = known.subtracting(try store.removedAccounts())
        let accounts = (shown.isEmpty ? known : shown).sorted()
        if accounts.count > 1 {
            let hint = unifiedToo ? "give --account NAME or --unified" : "give --account NAME"
            throw ValidationError("this store has several accounts (\(accounts.joined(separator: ", "))): \(hint)")
        }
        return accounts.first ?? "local"
    }

    /// The account to send or draft from when none is given: the only configured one (an account with no mail yet
    /// counts); with several configured, a usage error naming them; with none, `defaultAccount`'s answer.
    static func configuredAccount(_ store: MailStore) throws -> String {
        let configured = try store.accounts().map(\.name)
        if configured.count > 1 {
            throw ValidationError("this store has several accounts (\(configured.joined(separator: ", "))): give --account NAME")
        }
        return try configured.first ?? defaultAccount(store, unifiedToo: false)
    }
}
