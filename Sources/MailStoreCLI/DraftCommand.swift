import ArgumentParser
import Foundation
import MailStore

/// `mailstore draft new|edit|show|list|delete`.
struct DraftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draft", abstract: "Write drafts: every save is kept in the log (a draft survives a kill).",
        subcommands: [DraftNewCommand.self, DraftEditCommand.self, DraftShowCommand.self, DraftListCommand.self, DraftDeleteCommand.self])
}

/// The fields `draft new` and `draft edit` take.
struct DraftFields: ParsableArguments {
    @Option(help: ArgumentHelp("Recipients: \"Name <a@b.c>, d@e.f\".", valueName: "list")) var to: String?
    @Option(help: ArgumentHelp("Cc recipients.", valueName: "list")) var cc: String?
    @Option(help: ArgumentHelp("Bcc recipients (never in the headers).", valueName: "list")) var bcc: String?
    @Option(help: ArgumentHelp("The subject.", valueName: "text")) var subject: String?
    @Option(help: ArgumentHelp("The text body.", valueName: "text")) var body: String?
    @Option(help: ArgumentHelp("Read the text body from a file.", valueName: "file")) var bodyFile: String?
    @Option(help: ArgumentHelp("Attach a file (repeatable).", valueName: "file")) var attach: [String] = []

    func validate() throws {
        if body != nil && bodyFile != nil { throw ValidationError("give --body or --body-file, not both") }
    }

    func input() throws -> DraftInput {
        var body = self.body
        if let bodyFile {
            // Read no more than a draft holds (`DraftsUseCase.maxBodyBytes`): a bigger file is refused unread.
            let limit = DraftsUseCase.maxBodyBytes
            let data: [UInt8]
            do { data = try MailStore.readInput(bodyFile, maxBytes: limit, streams: true) } catch {
                switch error {
                case .tooLarge:
                    throw ValidationError("\(bodyFile) is over \(limit) bytes (1 MiB), more than a draft's text holds: attach it with --attach")
                case .notAFile: throw ValidationError("cannot read \(bodyFile): not a regular file")
                case .unreadable(let why): throw ValidationError("cannot read \(bodyFile): \(why)")
                }
            }
            body = try BodyFileText.decode(data, path: bodyFile)
        }
        return DraftInput(to: to, cc: cc, bcc: bcc, subject: subject, body: body, attach: attach)
    }

    /// Prints the address problems (stderr) and the draft id (last line of stdout).
    static func report(_ saved: DraftSaved, _ problems: [String]) {
        for p in problems { Terminal.warning(p) }
        print(saved.draftID)
    }
}

/// `--push` of the draft commands: the account's drafts go to the server's Drafts folder now.
struct DraftPushOption: ParsableArguments {
    @Flag(help: "Put the account's drafts in the server's Drafts folder now (else the next `mailstore sync` does).") var push = false

    /// Pushes `account`'s drafts when asked and prints the outcome (stderr: a draft kept local is a warning).
    func run(_ store: MailStore, account: String) throws {
        guard push else { return }
        guard let report = try store.pushDrafts(account: account) else {
            return Terminal.note("no server account: the drafts are local")
        }
        WriteBackSummary.drafts(report)
    }

    /// The `Server:` line of `draft show`: where the draft's server copy is, or why it is not there (with the retry time,
    /// `now (recorded TIME, ahead of this clock)` when it lies more than an hour ahead, ``RecordedTime``).
    static func serverLine(_ s: DraftServerState?, version: UInt32) -> String {
        guard let s else { return "local (not yet on the server)" }
        if let c = s.stored(version: version) { return "on the server in \(c.folder)" + (c.uid == 0 ? "" : " (uid \(c.uid))") }
        if s.localOnlyVersion == version { return "local only: \(s.problem)" }
        if !s.problem.isEmpty { return "not yet on the server (\(s.attempts) failed attempts, retried\(s.retryAt.map { " " + RecordedTime.at($0) } ?? "")): \(s.problem)" }
        return "local (not yet on the server)"
    }
}

struct DraftNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Start a draft; prints its id on the last line.")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The account to send from (default: the only one).", valueName: "name")) var account: String?
    @OptionGroup var fields: DraftFields
    @Option(help: ArgumentHelp("Reply to this email: to its Reply-To (else its From), \"Re:\" subject, In-Reply-To, References, the original quoted.",
                               valueName: "email"))
    var replyTo: String?
    @Option(help: ArgumentHelp("Reply to all: as --reply-to, and to the original's To (in To) and Cc (in Cc), your own address left out.",
                               valueName: "email"))
    var replyAll: String?
    @Option(help: ArgumentHelp("Forward this email: \"Fwd:\" subject, the original below, its attachments attached.", valueName: "email"))
    var forward: String?
    @OptionGroup var push: DraftPushOption

    func validate() throws {
        if [replyTo, replyAll, forward].compactMap({ $0 }).count > 1 {
            throw ValidationError("give one of --reply-to, --reply-all and --forward")
        }
    }

    func run() throws {
        try CLIExit.run {
            var input = try fields.input()
            input.replyTo = replyTo ?? replyAll
            input.replyAll = replyAll != nil
            input.forward = forward
            let store = try storeOptions.open()
            let account = try account ?? ProjectCommand.configuredAccount(store)
            let (saved, problems) = try DraftsUseCase(store: store).create(account: account, input)
            try push.run(store, account: account)
            DraftFields.report(saved, problems)
        }
    }
}

struct DraftEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Save a new version of a draft.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The draft id.") var draft: String
    @OptionGroup var fields: DraftFields
    @Option(help: ArgumentHelp("Remove the attachment of this file name (repeatable); when several have it, choose with --detach-at.",
                               valueName: "name")) var detach: [String] = []
    @Option(help: ArgumentHelp("Remove the attachment at this position, 1-based as `draft show` lists them (repeatable).",
                               valueName: "n")) var detachAt: [Int] = []
    @OptionGroup var push: DraftPushOption

    func run() throws {
        try CLIExit.run {
            var input = try fields.input()
            input.detach = detach
            input.detachAt = detachAt
            let store = try storeOptions.open()
            let (saved, problems) = try DraftsUseCase(store: store).edit(draft, input)
            if push.push, let account = try store.draft(id: draft)?.account { try push.run(store, account: account) }
            DraftFields.report(saved, problems)
        }
    }
}

struct DraftShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a draft's latest version.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The draft id.") var draft: String
    @Flag(help: "JSON.") var json = false

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            guard let d = try store.draft(id: draft) else { throw DraftError.notFound(draft) }
            let state = try store.outboxItem(draftID: draft)?.state.description ?? "draft"
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return print(JSONText.string(try e.encode(d.latest)))
            }
            let p = d.latest
            func list(_ a: [EmailAddress]) -> String { a.map(\.readable.displayed).joined(separator: ", ") }
            Terminal.print("Draft \(p.draftID), version \(p.draftVersion), \(state), account \(d.account)")
            Terminal.print("Server: " + DraftPushOption.serverLine(try store.draftServerState(account: d.account, draftID: p.draftID),
                                                               version: p.draftVersion))
            Terminal.print("To: \(list(p.to))")
            if !p.cc.isEmpty { Terminal.print("Cc: \(list(p.cc))") }
            if !p.bcc.isEmpty { Terminal.print("Bcc: \(list(p.bcc))") }
            Terminal.print("Subject: \(p.subject)")
            if let r = p.inReplyTo { Terminal.print("In-Reply-To: <\(r)>") }
            // Names (and types) can come from mail (a forward's): sanitised, one line each, in the list's order, which
            // `edit --detach-at` counts in.
            for a in p.attachments { Terminal.print("Attachment: \(a.filename) (\(a.mimeType), \(a.size) bytes)") }
            Terminal.print("")
            Terminal.printBlock(p.body)
            for problem in DraftsUseCase(store: store).problems(p) { Terminal.note("not sendable yet: \(problem)") }
        }
    }
}

struct DraftListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the drafts of an account.")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The account (default: the only one).", valueName: "name")) var account: String?

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            let account = try account ?? ProjectCommand.configuredAccount(store)
            try AccountCheck.require(account, in: store)
            for d in try store.drafts(account: account).sorted(by: { $0.savedAt > $1.savedAt }) {
                Terminal.print(DraftListCommand.line(d, state: try store.outboxItem(draftID: d.latest.draftID)?.state.description ?? "draft"))
            }
        }
    }

    /// One draft as a line of text.
    static func line(_ d: DraftRecord, state: String) -> String {
        "\(d.latest.draftID)  v\(d.latest.draftVersion)  \(ThreadRow.fit(state, 8))  \(d.latest.subject)"
    }
}

struct DraftDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a draft (its versions stay in the log).")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The draft id.") var draft: String
    @OptionGroup var push: DraftPushOption

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let account = try store.draft(id: draft)?.account
            try DraftsUseCase(store: store).delete(draft)
            if let account { try push.run(store, account: account) }
        }
    }
}
