/// Where an account's servers came from when they were looked up rather than given (account discovery,
/// AC-MP-08): committed with the account's `AccountAdded`, so `history` shows which step supplied which
/// setting, and kept by the accounts view as the cache a later lookup for the same domain reuses.
/// Never carries a secret (server names and ports only).
public struct AccountSettingsDiscovered: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 2

    /// The account's local name (also the envelope's account).
    public var name: String
    /// The email domain looked up (lowercased); the only part of the address ever sent to a server.
    public var domain: String
    /// The IMAP server found, nil when none was.
    public var imapHost: String?
    /// Its port.
    public var imapPort: UInt32?
    /// `tls` or `starttls`.
    public var imapSecurity: String?
    /// The step that found it: `registry`, `ispdb`, `dns-srv` or `mx`.
    public var imapSource: String?
    /// The SMTP submission server found, nil when none was.
    public var smtpHost: String?
    /// Its port.
    public var smtpPort: UInt32?
    /// `tls` or `starttls`.
    public var smtpSecurity: String?
    /// The step that found it.
    public var smtpSource: String?
    /// The account's settings given by hand instead of (or besides) what was found: `imapPort`,
    /// `imapSecurity`, `smtpHost`, `smtpPort`, `smtpSecurity`.
    public var manual: [String]
    /// Each step tried and its outcome, `step:status` (e.g. `ispdb:failed`, `dns-srv:found`; `cache:found`).
    public var steps: [String]
    /// The log sequence of the earlier `AccountSettingsDiscovered` reused from the cache; nil when looked up now.
    public var cachedFrom: UInt64?
    /// The IMAP server's `<username>` in the autoconfig document as written, its placeholders (`%EMAILLOCALPART%`, ...)
    /// not filled in, so a reuse from the cache fills them in for its own address (schema 2; nil in version 1, and when
    /// the document names none or the servers came from elsewhere).
    public var imapUsernameTemplate: String?
    /// The IMAP server's `<authentication>` values in the autoconfig document (`password-cleartext`, `OAuth2`, ...;
    /// schema 2, empty in version 1).
    public var imapAuthentication: [String]
    /// The SMTP server's `<username>` as written (schema 2).
    public var smtpUsernameTemplate: String?
    /// The SMTP server's `<authentication>` values (schema 2).
    public var smtpAuthentication: [String]

    /// Creates the payload.
    public init(name: String, domain: String, imapHost: String? = nil, imapPort: UInt32? = nil, imapSecurity: String? = nil,
                imapSource: String? = nil, smtpHost: String? = nil, smtpPort: UInt32? = nil, smtpSecurity: String? = nil,
                smtpSource: String? = nil, manual: [String] = [], steps: [String] = [], cachedFrom: UInt64? = nil,
                imapUsernameTemplate: String? = nil, imapAuthentication: [String] = [], smtpUsernameTemplate: String? = nil,
                smtpAuthentication: [String] = []) {
        self.name = name
        self.domain = domain
        self.imapHost = imapHost
        self.imapPort = imapPort
        self.imapSecurity = imapSecurity
        self.imapSource = imapSource
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.smtpSecurity = smtpSecurity
        self.smtpSource = smtpSource
        self.manual = manual
        self.steps = steps
        self.cachedFrom = cachedFrom
        self.imapUsernameTemplate = imapUsernameTemplate
        self.imapAuthentication = imapAuthentication
        self.smtpUsernameTemplate = smtpUsernameTemplate
        self.smtpAuthentication = smtpAuthentication
    }

    package func encode(to w: inout ByteWriter) {
        w.write(name)
        w.write(domain)
        w.write(imapHost)
        w.write(imapPort)
        w.write(imapSecurity)
        w.write(imapSource)
        w.write(smtpHost)
        w.write(smtpPort)
        w.write(smtpSecurity)
        w.write(smtpSource)
        w.write(manual)
        w.write(steps)
        w.write(cachedFrom)
        w.write(imapUsernameTemplate)
        w.write(imapAuthentication)
        w.write(smtpUsernameTemplate)
        w.write(smtpAuthentication)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        name = try r.read()
        domain = try r.read()
        imapHost = try r.read()
        imapPort = try r.read()
        imapSecurity = try r.read()
        imapSource = try r.read()
        smtpHost = try r.read()
        smtpPort = try r.read()
        smtpSecurity = try r.read()
        smtpSource = try r.read()
        manual = try r.read()
        steps = try r.read()
        cachedFrom = try r.read()
        if version >= 2 {
            imapUsernameTemplate = try r.read()
            imapAuthentication = try r.read()
            smtpUsernameTemplate = try r.read()
            smtpAuthentication = try r.read()
        } else {
            (imapUsernameTemplate, imapAuthentication, smtpUsernameTemplate, smtpAuthentication) = (nil, [], nil, [])
        }
    }
}
