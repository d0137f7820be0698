import ArgumentParser
import Foundation
import MailStore

/// `mailstore account add|list|remove`.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Add, list and remove mail accounts.",
        subcommands: [AccountAddCommand.self, AccountListCommand.self, AccountRemoveCommand.self, AccountLoginCommand.self,
                      AccountTestCommand.self, AccountDiscoverCommand.self])
}

/// `mailstore account add`.
struct AccountAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an IMAP account (its secret stays outside the store).",
        discussion: """
        The secret (password, app password or OAuth token) is read when syncing from exactly one of \
        --password-file (mode 0600), --password-command or --password-env. Only that reference is recorded; \
        the secret never enters the store, the log, argv or any output. A relative --password-file, and a \
        --password-command whose program is a relative path (./getpw.sh), are recorded absolute, so the account \
        works from any directory. \
        TLS certificates and host names are always verified; --ca-file adds a private CA to trust. \
        Without --host the servers come from the provider registry (Gmail, Outlook, Yahoo, iCloud) for the \
        email's domain, else from discovery (see `mailstore account discover`; a lookup of the same domain \
        cached in the log within 30 days is reused unless --no-cache), options given by hand winning; \
        a server a DNS SRV record names outside the email's domain is not used: the command stops (exit 6) \
        and shows it, to be given by hand with --host/--smtp-host if it is your provider's; \
        ProtonMail is refused (it needs its Bridge app). Where the servers came from is recorded with the \
        account (`mailstore history --account NAME`). Manual defaults: IMAP 993 with tls, SMTP 587 with starttls. \
        --display-name sets the name shown in the From header of mail sent from the account. \
        With --auth oauth2 there is no password: the account is added once you have signed in (in a browser, \
        or with --device on another device); see `mailstore account login`.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The account's name (letters, digits, . _ @ + -).") var name: String
    @Option(help: ArgumentHelp("The account's email address.", valueName: "address")) var email: String
    @Option(help: ArgumentHelp("The IMAP server (default: the provider registry's for the email's domain).", valueName: "host")) var host: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The IMAP port (default 993 for tls, 143 for starttls).", valueName: "port")) var port: UInt16?
    @Option(help: ArgumentHelp("tls (implicit TLS, the default) or starttls.", valueName: "mode")) var security: String?
    @Option(help: ArgumentHelp("plain, login, oauth2 (sign in now, tokens kept for you), or xoauth2 with a token from --password-command (default: the provider's, else plain).", valueName: "mechanism")) var auth: String?
    @OptionGroup var oauth: OAuthOptions
    @Option(help: ArgumentHelp("The login name (default: the email address).", valueName: "name")) var username: String?
    @Option(help: ArgumentHelp("A file (mode 0600) holding the secret.", valueName: "file")) var passwordFile: String?
    @Option(help: ArgumentHelp("A shell command printing the secret (or an OAuth token).", valueName: "command")) var passwordCommand: String?
    @Option(help: ArgumentHelp("An environment variable holding the secret.", valueName: "name")) var passwordEnv: String?
    @Option(help: ArgumentHelp("A PEM file of a private CA to trust.", valueName: "file")) var caFile: String?
    @Option(help: ArgumentHelp("The SMTP submission server (for sending).", valueName: "host")) var smtpHost: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The SMTP port (default 587 for starttls, 465 for tls).", valueName: "port")) var smtpPort: UInt16?
    @Option(help: ArgumentHelp("starttls (default) or tls.", valueName: "mode")) var smtpSecurity: String?
    @Option(help: ArgumentHelp("The SMTP login (default: the IMAP login).", valueName: "name")) var smtpUsername: String?
    @Option(help: ArgumentHelp("A file (0600) with the SMTP secret (default: the IMAP secret source).", valueName: "file")) var smtpPasswordFile: String?
    @Option(help: ArgumentHelp("A command printing the SMTP secret.", valueName: "command")) var smtpPasswordCommand: String?
    @Option(help: ArgumentHelp("An environment variable holding the SMTP secret.", valueName: "name")) var smtpPasswordEnv: String?
    @Option(help: ArgumentHelp("The name shown in the From header of mail sent from the account (e.g. \"Bob Example\").",
                               valueName: "name")) var displayName: String?
    @Option(help: ArgumentHelp("The provider of a server reached under another host name (a proxy, a tunnel, a test server): "
                               + "gmail, outlook, yahoo, icloud or custom (default: recognised from the host).", valueName: "id"))
    var provider: String?
    @Flag(help: "Run the connection test first (IMAP and SMTP, connect and auth) and record the account only if it passes.")
    var test = false
    @Flag(help: "Look the servers up again even when the log has a recent discovery of the domain.") var noCache = false

    func validate() throws {
        if let problem = AccountSettings.addressProblem(email) {
            throw ValidationError("--email wants an address such as alice@example.com: \(problem)")
        }
        if let provider, !AccountSettings.providerIDs.contains(provider) {
            throw ValidationError("--provider is \(AccountSettings.providerIDs.joined(separator: ", ")); got \"\(provider)\"")
        }
        let sources = [passwordFile, passwordCommand, passwordEnv].compactMap { $0 }
        if auth == "oauth2" {
            guard sources.isEmpty else { throw ValidationError("--auth oauth2 signs in instead of a password: drop --password-*") }
            try oauth.validate(host: host, provider: provider)
            return
        }
        if sources.count != 1 {
            throw ValidationError("give exactly one of --password-file FILE, --password-command CMD or --password-env VAR")
        }
        if [smtpPasswordFile, smtpPasswordCommand, smtpPasswordEnv].compactMap({ $0 }).count > 1 {
            throw ValidationError("give at most one of --smtp-password-file, --smtp-password-command or --smtp-password-env")
        }
    }

    func run() throws {
        try CLIExit.run {
            let credential: CredentialSource = if let passwordFile { .file(passwordFile) }
                else if let passwordCommand { .command(passwordCommand) } else { .environment(passwordEnv ?? "") }
            let smtpCredential: CredentialSource? = if let smtpPasswordFile { .file(smtpPasswordFile) }
                else if let smtpPasswordCommand { .command(smtpPasswordCommand) } else { smtpPasswordEnv.map { .environment($0) } }
            var settings = AccountSettings(name: name, email: email, host: host, port: port, security: security, auth: auth,
                                           username: username, credential: credential, caFile: caFile, smtpHost: smtpHost,
                                           smtpPort: smtpPort, smtpSecurity: smtpSecurity, smtpUsername: smtpUsername,
                                           smtpCredential: smtpCredential, displayName: displayName)
            settings.declaredProvider = provider
            let store = try storeOptions.open()
            try discoverServers(&settings, store: store)
            if test && auth != "oauth2" {
                let report = ConnectionTest(account: try settings.validated()).run()
                try AccountTestCommand.show(report, json: false)
                // An account with no SMTP server configured receives only: its two IMAP steps decide (the warning
                // that sending won't work is shown above). It had never been added with `--test`.
                let receiveOnly = report.imapOK && report.checks.allSatisfy { !$0.step.hasPrefix("smtp") || $0.status == "skipped" }
                guard report.ok || receiveOnly else {
                    Terminal.error("the account was not added; fix the settings or the secret and run `account add` again")
                    throw ExitCode(CLIExit.serverError)
                }
            }
            let added = auth == "oauth2"
                ? try store.addOAuthAccount(settings, config: try oauth.config(host: try settings.resolved().host ?? "", provider: provider, caFile: caFile),
                                            signIn: oauth.signIn(loginHint: email))
                : try store.addAccount(settings)
            Terminal.print("Added account \(added.name) (\(added.email), \(added.imapSecurity) \(added.imapHost):\(added.imapPort), "
                  + "provider \(added.provider), auth \(added.auth)"
                  + (added.smtpHost.map { ", SMTP \(added.smtpSecurity ?? "starttls") \($0):\(added.smtpPort ?? 0)" } ?? "") + ")")
        }
    }
}

extension AccountAddCommand {
    /// With no --host and a domain the registry does not know: the discovery chain (or the log's recent
    /// lookup of the domain) fills in what it finds (AC-MP-08); options given on the command line win.
    /// Nothing found for IMAP: the steps are shown, and the error says what to give with what was found.
    func discoverServers(_ settings: inout AccountSettings, store: MailStore) throws {
        guard host == nil, !AccountSettings.registryKnows(email: email) else { return }
        let r = try store.discoverServers(email: email, useCache: !noCache)
        settings.discovery = r
        guard let imapHost = r.imapHost else { return AccountDiscoverCommand.show(r) }
        Terminal.note("servers found by \(r.source ?? "discovery")" + (r.cachedAt.map { " (cached from \(String($0.prefix(10))))" } ?? "")
                      + ": IMAP \(imapHost)" + (r.smtpHost.map { ", SMTP \($0)" }
                                                  ?? (r.unconfirmedServer("smtp") == nil ? ", no SMTP server (give --smtp-host to send)" : "")))
    }
}

/// `mailstore account list`.
struct AccountListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")

    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "JSON Lines output.") var json = false

    func run() throws {
        try CLIExit.run {
            let accounts = try storeOptions.open(readOnly: true).accounts()
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys]
                for a in accounts { print(JSONText.string(try e.encode(a))) }
                return
            }
            if accounts.isEmpty { print("No accounts. Add one with `mailstore account add`."); return }
            // Each field printed without controls or bidi controls (an account recorded before they were refused may hold them).
            for a in accounts {
                let fields = [a.name, a.displayName.map { "\($0) <\(a.email)>" } ?? a.email, "\(a.imapSecurity)://\(a.imapHost):\(a.imapPort)",
                              a.provider, a.auth, "secret from \(a.credentialSource)"]
                print(fields.map(TerminalSanitiser.line).joined(separator: "\t"))
            }
        }
    }
}

/// `mailstore account remove`.
struct AccountRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an account from the configuration (its mail stays in the log).",
        discussion: """
        An OAuth account's sign-in is removed too: its refresh token is revoked at the provider when the provider \
        offers revocation (within 10 s; a failure is a warning, the account is removed all the same) and its \
        token file STORE/secrets/NAME.oauth is deleted.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The account's name.") var name: String

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let oauth = try store.account(named: name).flatMap { store.credentialSource(of: $0) }?.isOAuth ?? false
            let warnings = try store.removeAccount(named: name)
            for w in warnings { Terminal.warning(w) }
            print("Removed account \(name)" + (oauth && warnings.isEmpty ? " and its OAuth sign-in" : ""))
        }
    }
}
