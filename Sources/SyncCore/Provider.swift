import EventModel

/// A mail provider's built-in settings: servers, limits and folder conventions (the spec's provider registry).
public struct Provider: Sendable, Equatable {
    /// Transport security of a server endpoint.
    public enum Security: String, Sendable, Equatable { case tls, starttls }

    /// A server endpoint.
    public struct Server: Sendable, Equatable {
        public var host: String
        public var port: UInt16
        public var security: Security

        public init(host: String, port: UInt16, security: Security) {
            self.host = host
            self.port = port
            self.security = security
        }
    }

    /// The registry id: `gmail`, `outlook`, `yahoo`, `icloud` or `custom`.
    public var id: String
    /// Mail domains that belong to it.
    public var domains: [String]
    /// Host name suffixes of its servers (to recognise an account added with explicit hosts).
    public var hostSuffixes: [String]
    /// IMAP server, when known.
    public var imap: Server?
    /// SMTP submission server, when known.
    public var smtp: Server?
    /// The authentication the provider expects: `plain` (app password) or `xoauth2`.
    public var auth: String
    /// Connections the provider allows per account.
    public var maxConnections: Int
    /// How long an IDLE may last before it is re-issued (seconds).
    public var idleRefreshSeconds: Double
    /// Tier 2 of folder mapping: folder names (case-insensitive) and their roles.
    public var folderNameMap: [String: FolderRole]
    /// Folders never synced (case-insensitive full names, and their children).
    public var excludedFolders: [String]
    /// Whether a sent message must be APPENDed to Sent by the client (Gmail files it itself).
    public var requiresSentAppend: Bool
    /// Whether the server has Gmail's IMAP extensions (X-GM-THRID, labels).
    public var hasGmailExtensions: Bool
    /// OAuth 2.0 sign-in for providers that use it (Gmail, Outlook); nil for app-password providers.
    public var oauthConfig: OAuthConfig? = nil

    /// The role tier 2 gives `path`, if the provider names it.
    public func mappedRole(_ path: String) -> FolderRole? {
        folderNameMap[path.lowercased()]
    }

    /// Whether `path` is excluded from sync (or under an excluded folder).
    public func excludes(_ path: String, delimiter: String?) -> Bool {
        let p = path.lowercased()
        return excludedFolders.contains { ex in
            p == ex || (delimiter.map { p.hasPrefix(ex + $0.lowercased()) } ?? false)
        }
    }
}
