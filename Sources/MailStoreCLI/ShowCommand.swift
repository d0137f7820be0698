import ArgumentParser
import Foundation
import MailStore

/// `mailstore show EMAIL`: one email, or its raw bytes.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show an email by id; --raw prints its original bytes exactly.",
        discussion: """
        The headers, then the message's text: its plain text part, or its HTML part's text where it has none (at most \
        1 MiB, then a notice), made safe for the terminal. --headers-only leaves the text out.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The email id (as `mailstore log` shows it in email/<id>).", valueName: "email"))
    var email: String

    @Flag(name: .long, help: "Print the raw message exactly as stored (byte for byte), to a pipe or a file; on a terminal only with --force.")
    var raw = false

    @Flag(name: .long, help: "With --raw: print the bytes to a terminal too (escape sequences in the mail act on it).")
    var force = false

    @Flag(name: .long, help: "Print the EmailReceived event as JSON (as `log --json` prints it: the envelope, the payload under \"payload\").")
    var json = false

    @Flag(name: .customLong("headers-only"), help: "Print the headers without the message's text.")
    var headersOnly = false

    func validate() throws {
        if force && !raw { throw ValidationError("--force goes with --raw") }
        // The raw bytes are a stranger's: printed to a terminal, an escape sequence in them clears the screen or
        // writes the clipboard. They go to a pipe or a file (`| less`, `> msg.eml`), to a terminal only when asked.
        if raw && !force && Terminal.stdoutIsTTY {
            throw ValidationError("--raw writes the message's bytes as they are, escape sequences included, and standard output is a terminal: pipe it (| less) or redirect it (> message.eml), or add --force")
        }
    }

    func run() throws {
        try CLIExit.run {
            // One record and its blob, found through the indexes.
            let store = try MailStore.open(at: storeOptions.path, readOnly: true, lookups: true)
            let id = email.hasPrefix("email/") ? String(email.dropFirst(6)) : email
            guard let received = try store.email(id: id) else {
                throw CLIError.notFound("no email with id '\(id)': `mailstore log --type EmailReceived` lists them")
            }
            if raw {
                guard let bytes = try store.blob(received.payload.blob) else {
                    throw CLIError.notFound("the raw message \(received.payload.blob) is missing from the blob store; run `mailstore verify`")
                }
                StandardStream.out(Data(bytes))
                return
            }
            if json {
                let data = try EventJSON.encoder.encode(EventJSON(received.event))
                print(JSONText.string(data))
                return
            }
            let p = received.payload
            func list(_ a: [EmailAddress]) -> String { a.map(\.readable.displayed).joined(separator: ", ") }
            Terminal.print("Email:       \(p.emailID)  (seq \(received.event.envelope.sequence), account \(received.event.envelope.account))")
            // Where it is and its flags now (actions and syncs since), and how it came when that differs.
            let now = try store.currentState(ofEmail: p.emailID)
            let flagText = { (flags: [String]) in flags.isEmpty ? "(none)" : flags.joined(separator: " ") }
            if let now {
                Terminal.print("Folder:      \(now.folder)" + (now.folder == p.folder ? "" : "  (received in \(p.folder))"))
            } else {
                Terminal.print("Folder:      \(p.folder)  (as received; no longer there: expunged)")
            }
            Terminal.print("Message-ID:  \(p.messageID.map { "<\($0)>" } ?? "(none)")")
            Terminal.print("Date:        \(p.date.iso8601) (from \(p.dateSource))")
            Terminal.print("From:        \(list(p.from))")
            if !p.to.isEmpty { Terminal.print("To:          \(list(p.to))") }
            if !p.cc.isEmpty { Terminal.print("Cc:          \(list(p.cc))") }
            Terminal.print("Subject:     \(p.subject)")
            if let now, Set(now.flags) != Set(p.flags) {
                Terminal.print("Flags:       \(flagText(now.flags))  (received with \(flagText(p.flags)))")
            } else {
                Terminal.print("Flags:       \(flagText(p.flags))")
            }
            Terminal.print("Size:        \(p.size) bytes, blob \(p.blob.hex)")
            for a in p.attachments {
                Terminal.print("Attachment:  \(a.filename ?? "(unnamed)") \(a.mimeType) \(a.size) bytes\(a.isInline ? " (inline)" : "")")
            }
            Terminal.print("Snippet:     \(p.snippet)")
            for w in p.warnings { Terminal.print("Warning:     \(w)") }
            if headersOnly { return }
            guard let body = try store.bodyText(of: received) else {
                throw CLIError.notFound("the raw message \(p.blob) is missing from the blob store, so its text is too; run `mailstore verify`")
            }
            var out = OutputBuffer()
            out.write("\n")
            if body.text.isEmpty {
                out.write("(no text part" + (p.attachments.isEmpty ? ")\n" : "; see the attachments above)\n"))
            } else {
                if body.fromHTML { out.write("(the text of its HTML part)\n\n") }
                out.write(TerminalSanitiser.block(body.text))
                if !body.text.hasSuffix("\n") { out.write("\n") }
            }
            if body.truncated {
                out.write("[the text goes on past \(BodyText.defaultLimit / 1_048_576) MiB: `mailstore show --raw \(p.emailID)` prints the whole message]\n")
            }
            out.flush()
        }
    }
}
