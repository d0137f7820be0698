import EventModel
import Foundation
import SyncCore

/// The settings of a new account, as `mailstore account add` takes them. Validated and turned into an
/// `AccountAdded` event, which holds where the secret comes from but never the secret.
public struct AccountSettings: Sendable {
    public var name: String
    public var email: String
    /// The IMAP server; nil takes the provider registry's for the email's domain.
    public var host: String?
    public var port: UInt16?
    /// `tls` or `starttls`; nil takes the registry's, else `tls` (the manual default, with port 993).
    public var security: String?
    public var auth: String?
    public var username: String?
    public var credential: CredentialSource
    public var caFile: String?
    /// SMTP submission (optional): host, port (default 587 for starttls, 465 for tls), security (default
    /// starttls), and a login and secret source when they differ from the IMAP ones.
    public var smtpHost: String?
    public var smtpPort: UInt16?
    public var smtpSecurity: String?
    public var smtpUsername: String?
    public var smtpCredential: CredentialSource?
    /// The display name for the From header of mail sent from the account (nil: the address alone).
    public var displayName: String?
    /// What discovery found (`MailStore.discoverServers`): with no `host`, the servers come from it instead of
    /// the registry, options given by hand still winning; `addAccount` records it (`AccountSettingsDiscovered`).
    public var discovery: AccountDiscovery.Result?
    /// The provider declared by hand (`account add --provider`: `gmail`, `outlook`, `yahoo`, `icloud` or `custom`), for a
    /// server reached under another host name (a proxy, a tunnel, a test server); nil recognises it from the host.
    public var declaredProvider: String?

    /// The ids `declaredProvider` takes.
    public static let providerIDs = ProviderRegistry.all.map(\.id) + [ProviderRegistry.custom.id]

    public init(name: String, email: String, host: String?, port: UInt16? = nil, security: String?, auth: String? = nil,
                username: String? = nil, credential: CredentialSource, caFile: String? = nil, smtpHost: String? = nil,
                smtpPort: UInt16? = nil, smtpSecurity: String? = nil, smtpUsername: String? = nil,
                smtpCredential: CredentialSource? = nil, displayName: String? = nil) {
        self.name = name
        self.email = email
        self.host = host
        self.port = port
        self.security = security
        self.auth = auth
        self.username = username
        self.credential = credential
        self.caFile = caFile
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.smtpSecurity = smtpSecurity
        self.smtpUsername = smtpUsername
        self.smtpCredential = smtpCredential
        self.displayName = displayName
    }

    /// The provider: the one declared (`declaredProvider`), else recognised from the host, else `custom` (a known email
    /// domain on another host is a custom server); with no host, the registry's provider for the email's domain.
    public var provider: Provider {
        if let declaredProvider { return ProviderRegistry.provider(id: declaredProvider) }
        guard let host = host ?? discovery?.imapHost else { return ProviderRegistry.provider(forEmail: email) }
        return ProviderRegistry.provider(forHost: host) ?? ProviderRegistry.custom
    }

    /// Whether the registry has servers for `email` (or refuses it): then discovery is not needed.
    public static func registryKnows(email: String) -> Bool {
        ProviderRegistry.unsupported(forEmail: email) != nil || ProviderRegistry.provider(forEmail: email).imap != nil
    }

    /// The settings with every server the user left out taken from the registry (AC-MP-01): IMAP host, port and
    /// security, and SMTP when no SMTP host was given. Throws for an unsupported service (E-22) and for an
    /// unknown domain without `--host`.
    public func resolved() throws(AccountError) -> AccountSettings {
        if let unsupported = ProviderRegistry.unsupported(forEmail: email) { throw .unsupportedProvider(unsupported.reason) }
        guard host == nil else { return self }
        if let discovery { return try resolved(from: discovery) }
        let provider = ProviderRegistry.provider(forEmail: email)
        guard let imap = provider.imap else {
            throw .invalid("no server is known for \"\(email)\"; give --host (see `mailstore account discover \(email)`)")
        }
        var r = self
        r.host = imap.host
        r.port = port ?? imap.port
        r.security = security ?? imap.security.rawValue
        if smtpHost == nil, let smtp = provider.smtp {
            r.smtpHost = smtp.host
            r.smtpPort = smtpPort ?? smtp.port
            r.smtpSecurity = smtpSecurity ?? smtp.security.rawValue
        }
        return r
    }

    /// The settings with the servers `found` by discovery where none were given; without an IMAP server found,
    /// an error that says what to give, with whatever was found (the SMTP server) filled in (E-31).
    private func resolved(from found: AccountDiscovery.Result) throws(AccountError) -> AccountSettings {
        // A server DNS named outside the domain is used only once given by hand (RFC 6186 section 6).
        if let problem = found.confirmationProblem(smtpGiven: smtpHost != nil) { throw .invalid(problem) }
        guard let imapHost = found.imapHost else {
            let smtp = smtpHost == nil ? found.smtpHost.map { h in
                " --smtp-host \(h)" + (found.smtpPort.map { " --smtp-port \($0)" } ?? "") + (found.smtpSecurity.map { " --smtp-security \($0)" } ?? "")
            } ?? "" : ""
            // Say why when a step saw servers it could not take (an autoconfig offering plaintext only).
            let plaintext = DiscoveryError.noEncryptedServer.description
            let why = found.steps.contains { $0.detail == plaintext } ? " (\(plaintext.prefix { $0 != ":" }))" : ""
            throw .invalid("no IMAP server was found for \"\(email)\"\(why); give it by hand: --host HOST [--port P --security tls|starttls]\(smtp)")
        }
        var r = self
        r.host = imapHost
        r.port = port ?? found.imapPort
        r.security = security ?? found.imapSecurity
        if smtpHost == nil, let smtp = found.smtpHost {
            r.smtpHost = smtp
            r.smtpPort = smtpPort ?? found.smtpPort
            r.smtpSecurity = smtpSecurity ?? found.smtpSecurity
        }
        return r
    }

    /// The settings given by hand although they were looked up (`imapPort`, `smtpHost`, ...).
    var manualSettings: [String] {
        [("imapPort", port != nil), ("imapSecurity", security != nil), ("smtpHost", smtpHost != nil),
         ("smtpPort", smtpPort != nil), ("smtpSecurity", smtpSecurity != nil)].filter(\.1).map(\.0)
    }

    /// Where the servers of the account `added` came from, when they were looked up rather than given with
    /// `host`: the discovery result, or the registry. Nil for servers given by hand.
    func discoveryEvent(for added: AccountAdded) -> AccountSettingsDiscovered? {
        guard host == nil else { return nil }
        if let discovery { return discovery.payload(account: added.name, manual: manualSettings) }
        let provider = ProviderRegistry.provider(forEmail: email)
        guard let imap = provider.imap else { return nil }
        return AccountSettingsDiscovered(name: added.name, domain: AccountDiscovery.domain(of: email), imapHost: imap.host,
                                         imapPort: UInt32(imap.port), imapSecurity: imap.security.rawValue, imapSource: "registry",
                                         smtpHost: provider.smtp?.host, smtpPort: provider.smtp.map { UInt32($0.port) },
                                         smtpSecurity: provider.smtp?.security.rawValue, smtpSource: provider.smtp.map { _ in "registry" },
                                         manual: manualSettings, steps: ["registry:found"])
    }

    /// Whether `email` can be an account's address (`addressProblem` is nil).
    public static func isAccountAddress(_ email: String) -> Bool { addressProblem(email) == nil }

    /// Why `email` cannot be an account's address, or nil when it can: one `@`; before it 1-64 bytes without white
    /// space, control or format characters (bidi controls, zero-width characters); after it a host name with a dot
    /// (or `localhost`), an internationalised one only when it converts to ASCII (`AccountDiscovery.asciiDomain`); at
    /// most 254 bytes in all (RFC 5321's path limit).
    public static func addressProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return "an address is LOCAL@DOMAIN with one @, such as alice@example.com" }
        guard email.utf8.count <= 254 else { return "an address is at most 254 bytes" }
        guard parts[0].utf8.count <= 64 else { return "the part before the @ is at most 64 bytes" }
        if let bad = parts[0].unicodeScalars.first(where: { AccountDiscovery.isInvisible($0) || $0.properties.isWhitespace }) {
            return "the part before the @ holds U+\(String(format: "%04X", bad.value)), a space, control or format character"
        }
        do {
            let domain = try AccountDiscovery.asciiDomain(String(parts[1]))
            guard domain.contains(".") || domain == "localhost" else { return "the domain \"\(domain)\" has no dot" }
        } catch {
            return error.description
        }
        return nil
    }

    /// Why `name` cannot name an account, or nil when it can: 1-64 bytes (UTF-8: the name is a key and part of a lock
    /// file's name) of letters, digits (with their combining marks) and `. _ @ + -`, starting with a letter or digit, in
    /// Unicode's composed form (NFC: "é" typed as e and a combining accent is another name byte for byte, which two
    /// accounts could otherwise hold looking alike).
    static func nameProblem(_ name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "it is empty" }
        guard name.utf8.count <= 64 else { return "it is \(name.utf8.count) bytes" }
        guard name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "._@+-".unicodeScalars.contains($0) }) else {
            return "it holds another character"
        }
        guard CharacterSet.letters.contains(first) || CharacterSet.decimalDigits.contains(first),
              ![.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory) else {
            return "it starts with another character"
        }
        guard name.utf8.elementsEqual(name.precomposedStringWithCanonicalMapping.utf8) else {
            return "it is not in Unicode's composed form (NFC); type its accented letters as one character each"
        }
        return nil
    }

    /// Checks every setting and returns the event payload (paths made absolute).
    public func validated() throws(AccountError) -> AccountAdded {
        let settings = try resolved()
        guard let host = settings.host else { throw .invalid("--host is missing") }
        return try settings.validated(host: host, security: settings.security ?? "tls")
    }

    private func validated(host: String, security: String) throws(AccountError) -> AccountAdded {
        if let problem = AccountSettings.nameProblem(name) {
            let shown = String(String.UnicodeScalarView(name.unicodeScalars.prefix(64)))
                .unicodeScalars.map { AccountDiscovery.isInvisible($0) ? "<U+\(String($0.value, radix: 16, uppercase: true))>" : String($0) }.joined()
            throw .invalid("an account name is 1-64 bytes of letters, digits and . _ @ + -, starting with a letter or digit: \(problem); "
                           + "got \"\(shown)\(name.unicodeScalars.count > 64 ? "…" : "")\"")
        }
        if let problem = AccountSettings.addressProblem(email) {
            throw .invalid("--email wants an address such as alice@example.com: \(problem)")
        }
        try AccountSettings.checkServer(host: host, security: security, port: port, options: "--", protocolName: "IMAP")
        if let declaredProvider, !AccountSettings.providerIDs.contains(declaredProvider) {
            throw .invalid("--provider is \(AccountSettings.providerIDs.joined(separator: ", ")); got \"\(declaredProvider)\"")
        }
        let found = self.auth == nil ? try discoveredAuth() : nil
        let auth = self.auth ?? found ?? provider.auth
        guard ["plain", "xoauth2", "login", "oauth2", "oauthbearer"].contains(auth) else {
            throw .invalid("--auth is plain, login, oauth2 (signed in with `mailstore account login`), xoauth2 or oauthbearer; got \"\(auth)\"")
        }
        let credential = try self.credential.withAbsolutePath(option: "--password-command")
        try credential.validate()
        var ca: String?
        if let caFile {
            let path = AccountSettings.absolute(caFile)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .invalid("--ca-file \(path) cannot be read")
            }
            ca = path
        }
        if let displayName {
            guard !displayName.trimmingCharacters(in: .whitespaces).isEmpty, displayName.count <= 128,
                  !displayName.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
                throw .invalid("--display-name is 1-128 characters on one line, without control characters")
            }
        }
        let port = self.port ?? (security == "tls" ? 993 : 143)
        var added = AccountAdded(name: name, email: email, provider: provider.id, imapHost: host, imapPort: UInt32(port),
                                 imapSecurity: security, auth: auth, username: username ?? discovered?.imapUsername ?? email,
                                 credentialSource: credential.description, caFile: ca,
                                 displayName: displayName?.trimmingCharacters(in: .whitespaces))
        if smtpHost == nil && (smtpPort != nil || smtpSecurity != nil || smtpUsername != nil || smtpCredential != nil) {
            throw .invalid("the --smtp-* options need --smtp-host")
        }
        if let smtpHost {
            let smtpSecurity = self.smtpSecurity ?? "starttls"
            try AccountSettings.checkServer(host: smtpHost, security: smtpSecurity, port: smtpPort, options: "--smtp-", protocolName: "SMTP")
            let smtpCredential = try self.smtpCredential?.withAbsolutePath(option: "--smtp-password-command")
            try smtpCredential?.validate()
            added.smtpHost = smtpHost
            added.smtpPort = UInt32(smtpPort ?? (smtpSecurity == "tls" ? 465 : 587))
            added.smtpSecurity = smtpSecurity
            // The autoconfig's SMTP login, when it is not the IMAP one the account logs in with already.
            let foundSMTPUser = smtpHost == discovered?.smtpHost ? discovered?.smtpUsername : nil
            added.smtpUsername = smtpUsername ?? (foundSMTPUser == added.username ? nil : foundSMTPUser)
            added.smtpCredentialSource = smtpCredential?.description
        }
        return added
    }

    /// What discovery found, when the servers came from it (no --host given).
    private var discovered: AccountDiscovery.Result? { discovery.flatMap { $0.imapHost != nil && $0.imapHost == host ? $0 : nil } }

    /// The `--auth` the autoconfig document's `<authentication>` values for the IMAP server ask for
    /// (`AccountDiscovery.auth(forAuthentication:)`), or nil when it names none; throws when it offers nothing a
    /// password can do, with what to give instead.
    private func discoveredAuth() throws(AccountError) -> String? {
        guard let offered = discovered?.imapAuthentication, !offered.isEmpty else { return nil }
        let list = offered.map { "\"\($0)\"" }.joined(separator: ", ")
        switch AccountDiscovery.auth(forAuthentication: offered) {
        case "plain": return "plain"
        case "oauth2":
            throw .invalid("the provider's autoconfig offers only OAuth2 sign-in for IMAP (\(list)), no password: add the account "
                           + "with --auth oauth2 instead of --password-* (see `mailstore account login`), or give --auth plain to "
                           + "try a password (an app password) anyway")
        default:
            throw .invalid("the provider's autoconfig offers only \(list) for IMAP, which mailstore does not do (it does a "
                           + "password with PLAIN or LOGIN, and OAuth2): give --auth plain to try a password anyway")
        }
    }

    /// Checks a server's host name, security mode and port (the options named `PREFIXhost` etc.).
    static func checkServer(host: String, security: String, port: UInt16?, options prefix: String,
                            protocolName: String) throws(AccountError) {
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw .invalid("\(prefix)host wants a server name or address; got \"\(host)\"")
        }
        if let bad = host.unicodeScalars.first(where: { AccountDiscovery.isInvisible($0) }) {
            throw .invalid("\(prefix)host wants a server name or address; it holds U+\(String(format: "%04X", bad.value)), "
                           + "a control or format character (such as a bidi control or a zero-width character)")
        }
        guard ["tls", "starttls"].contains(security) else {
            throw .invalid("\(prefix)security is tls or starttls (plaintext \(protocolName) is not supported); got \"\(security)\"")
        }
        if port == 0 { throw .invalid("\(prefix)port must be 1-65535") }
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
