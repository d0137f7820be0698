/// An account was configured. Never carries a secret: only where the secret comes from.
public struct AccountAdded: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 2

    /// The account's local name (also the envelope's account).
    public var name: String
    /// The account's email address.
    public var email: String
    /// `gmail`, `outlook`, `yahoo`, `icloud` or `imap`.
    public var provider: String
    /// IMAP host name.
    public var imapHost: String
    /// IMAP port.
    public var imapPort: UInt32
    /// `tls` or `starttls`.
    public var imapSecurity: String
    /// `plain`, `xoauth2` or `login`.
    public var auth: String
    /// Login name.
    public var username: String
    /// Where the secret is read from: `file:PATH`, `command:CMD` or `env:VAR`; never the secret.
    public var credentialSource: String
    /// A private CA file to trust for this account.
    public var caFile: String?
    /// SMTP submission host.
    public var smtpHost: String?
    /// SMTP port.
    public var smtpPort: UInt32?
    /// `tls` or `starttls`.
    public var smtpSecurity: String?
    /// SMTP login name when it differs.
    public var smtpUsername: String?
    /// SMTP secret source when it differs; never the secret.
    public var smtpCredentialSource: String?
    /// The display name for the From header of mail sent from this account (schema version 2; nil before:
    /// the address alone).
    public var displayName: String?

    /// Creates the payload.
    public init(name: String, email: String, provider: String, imapHost: String, imapPort: UInt32, imapSecurity: String, auth: String, username: String, credentialSource: String, caFile: String? = nil, smtpHost: String? = nil, smtpPort: UInt32? = nil, smtpSecurity: String? = nil, smtpUsername: String? = nil, smtpCredentialSource: String? = nil, displayName: String? = nil) {
        self.name = name
        self.email = email
        self.provider = provider
        self.imapHost = imapHost
        self.imapPort = imapPort
        self.imapSecurity = imapSecurity
        self.auth = auth
        self.username = username
        self.credentialSource = credentialSource
        self.caFile = caFile
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.smtpSecurity = smtpSecurity
        self.smtpUsername = smtpUsername
        self.smtpCredentialSource = smtpCredentialSource
        self.displayName = displayName
    }

    package func encode(to w: inout ByteWriter) {
        w.write(name)
        w.write(email)
        w.write(provider)
        w.write(imapHost)
        w.write(imapPort)
        w.write(imapSecurity)
        w.write(auth)
        w.write(username)
        w.write(credentialSource)
        w.write(caFile)
        w.write(smtpHost)
        w.write(smtpPort)
        w.write(smtpSecurity)
        w.write(smtpUsername)
        w.write(smtpCredentialSource)
        w.write(displayName)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        name = try r.read()
        email = try r.read()
        provider = try r.read()
        imapHost = try r.read()
        imapPort = try r.read()
        imapSecurity = try r.read()
        auth = try r.read()
        username = try r.read()
        credentialSource = try r.read()
        caFile = try r.read()
        smtpHost = try r.read()
        smtpPort = try r.read()
        smtpSecurity = try r.read()
        smtpUsername = try r.read()
        smtpCredentialSource = try r.read()
        displayName = version >= 2 ? try r.read() : nil
    }
}
