import ArgumentParser
import Foundation
import MailStore

/// `mailstore account test NAME [--json]`: IMAP connect, IMAP auth, SMTP connect, SMTP auth, within 10 s.
struct AccountTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Test an account's servers and secret: IMAP connect and auth, SMTP connect and auth (within 10 s).",
        discussion: "Exit 0 when every step passed, 5 when one failed; nothing is recorded.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The account's name.") var name: String
    @Flag(help: "One JSON object: account, checks (step, status, detail, seconds), warning, seconds.") var json = false

    func run() throws {
        try CLIExit.run {
            let report = try storeOptions.open(readOnly: true).testAccount(named: name)
            try AccountTestCommand.show(report, json: json)
            if !report.ok { throw ExitCode(CLIExit.serverError) }
        }
    }

    /// Prints a connection test: one line per step, then the warning (or the JSON object).
    static func show(_ report: ConnectionTest.Report, json: Bool) throws {
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            print(JSONText.string(try e.encode(report)))
            return
        }
        for c in report.checks {
            let mark = c.status == "ok" ? "ok     " : c.status == "failed" ? "FAILED " : "skipped"
            Terminal.print("\(mark) \(c.step)" + String(format: " (%.1f s)", c.seconds) + (c.detail.map { ": \($0)" } ?? ""))
        }
        if let warning = report.warning { Terminal.warning(warning) }
        print(report.ok ? "All 4 checks passed" + String(format: " in %.1f s", report.seconds)
              : "The connection test failed" + String(format: " after %.1f s", report.seconds))
    }
}
