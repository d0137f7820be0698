import ArgumentParser
import Foundation
import MailStore

/// `mailstore account discover EMAIL [--json]`: the discovery chain, step by step.
struct AccountDiscoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Find an address's servers: registry, ISPDB autoconfig, DNS SRV, MX heuristic (10 s each, 30 s in all).",
        discussion: """
        Only the domain is sent to the autoconfig server. MAILSTORE_AUTOCONFIG_URL replaces the ISPDB base URL, \
        MAILSTORE_DNS_SERVER (IPV4[:PORT]) the resolver. When the store holds a lookup of the domain made by
        `account add` within 30 days, that is shown (one step, `cache`) instead of asking again; --no-cache asks. \
        An SRV record naming a server outside the address's domain is shown but not used (RFC 6186 section 6: DNS \
        alone cannot say another domain's server is yours); give it by hand to use it. \
        Nothing is recorded. Exit 0 when an IMAP server was found, 4 when nothing was (set it up by hand with \
        --host), 6 for an unsupported service (ProtonMail).
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The email address.") var email: String
    @Flag(help: "One JSON object: email, domain, steps (step, status, detail, imap, smtp, seconds), the settings found (imapHost, imapPort, imapSecurity, source, smtpHost, smtpPort, smtpSecurity, smtpSource), the autoconfig logins and methods (imapUsername, imapUsernameTemplate, imapAuthentication and the smtp ones), unconfirmed (servers a DNS SRV answer named outside the domain, not used: service, host, port, security), unsupported, seconds, and cachedAt and cachedSequence for a cached lookup.") var json = false
    @Flag(help: "Ask the servers even when the store has a recent lookup of the domain.") var noCache = false

    func validate() throws {
        if let problem = AccountSettings.addressProblem(email) {
            throw ValidationError("give an email address such as alice@example.com (its domain is what is looked up): \(problem)")
        }
    }

    func run() throws {
        let result = lookUp()
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            print(JSONText.string(try e.encode(result)))
        } else {
            AccountDiscoverCommand.show(result)
        }
        if result.unsupported != nil { throw ExitCode(CLIExit.configError) }
        if result.imapHost == nil { throw ExitCode(CLIExit.notFound) }
    }

    /// The store's cached lookup (when there is a store and a recent one, unless --no-cache), else the chain.
    /// A store that cannot be read only means no cache: discovery never depends on one.
    private func lookUp() -> AccountDiscovery.Result {
        if !noCache, FileManager.default.fileExists(atPath: storeOptions.path),
           let store = try? storeOptions.open(readOnly: true), let result = try? store.discoverServers(email: email) {
            return result
        }
        return AccountDiscovery().run(email: email)
    }

    /// Prints each step and what was found.
    static func show(_ r: AccountDiscovery.Result) {
        if let u = r.unsupported { return Terminal.print(u) }
        for s in r.steps {
            let found = [s.imap.map { "IMAP \($0)" }, s.smtp.map { "SMTP \($0)" }].compactMap { $0 }.joined(separator: ", ")
            Terminal.print("\(s.step.padding(toLength: 9, withPad: " ", startingAt: 0)) \(s.status)"
                           + String(format: " (%.1f s)", s.seconds) + (found.isEmpty ? "" : ": \(found)") + (s.detail.map { ": \($0)" } ?? ""))
        }
        if let host = r.imapHost, let port = r.imapPort, let sec = r.imapSecurity {
            Terminal.print("IMAP \(sec)://\(host):\(port) (from \(r.source ?? "?"))"
                           + (r.smtpHost.map { ", SMTP \(r.smtpSecurity ?? "starttls")://\($0):\(r.smtpPort ?? 0) (from \(r.smtpSource ?? "?"))" }
                              ?? ", no SMTP server found"))
        } else {
            Terminal.print("Nothing found: set the account up by hand (account add --host H [--smtp-host H])"
                           + (r.smtpHost.map { "; SMTP found: \($0):\(r.smtpPort ?? 0)" } ?? ""))
        }
        for u in r.unconfirmed ?? [] {
            let option = u.service == "imap" ? "--host \(u.host) --port \(u.port) --security \(u.security)"
                : "--smtp-host \(u.host) --smtp-port \(u.port) --smtp-security \(u.security)"
            Terminal.print("Not used: DNS (SRV) names \(u.service.uppercased()) \(u.security)://\(u.host):\(u.port), outside \(r.domain); "
                           + "DNS alone cannot say another domain's server is yours: if it is your provider's, give it: \(option)")
        }
    }
}
