import EventModel

/// The built-in providers (Gmail, Outlook, Yahoo, iCloud) and the conservative default for any other IMAP server.
package enum ProviderRegistry {
    /// Gmail: OAuth, labels as folders, All Mail not synced (every message is in it).
    package static let gmail = Provider(
        id: "gmail", domains: ["gmail.com", "googlemail.com"], hostSuffixes: ["gmail.com", "googlemail.com"],
        imap: .init(host: "imap.gmail.com", port: 993, security: .tls),
        smtp: .init(host: "smtp.gmail.com", port: 465, security: .tls),
        auth: "xoauth2", maxConnections: 5, idleRefreshSeconds: 25 * 60,
        folderNameMap: gmailNames(prefix: "[gmail]/").merging(gmailNames(prefix: "[google mail]/")) { a, _ in a },
        excludedFolders: ["[gmail]/all mail", "[google mail]/all mail"],
        requiresSentAppend: false, hasGmailExtensions: true, oauthConfig: .gmail)

    /// Outlook.com / Microsoft 365.
    package static let outlook = Provider(
        id: "outlook", domains: ["outlook.com", "hotmail.com", "live.com", "msn.com"],
        hostSuffixes: ["outlook.com", "office365.com"],
        imap: .init(host: "outlook.office365.com", port: 993, security: .tls),
        smtp: .init(host: "smtp.office365.com", port: 587, security: .starttls),
        auth: "xoauth2", maxConnections: 5, idleRefreshSeconds: 25 * 60,
        folderNameMap: ["sent items": .sent, "deleted items": .trash, "junk email": .junk, "junk e-mail": .junk,
                        "drafts": .drafts, "archive": .archive],
        excludedFolders: ["sync issues", "conversation history", "outbox"],
        requiresSentAppend: false, hasGmailExtensions: false, oauthConfig: .outlook)

    /// Yahoo Mail (app passwords); its IDLE drops after 5 minutes, so it is refreshed every 4.
    package static let yahoo = Provider(
        id: "yahoo", domains: ["yahoo.com", "ymail.com", "rocketmail.com"], hostSuffixes: ["yahoo.com"],
        imap: .init(host: "imap.mail.yahoo.com", port: 993, security: .tls),
        smtp: .init(host: "smtp.mail.yahoo.com", port: 465, security: .tls),
        auth: "plain", maxConnections: 5, idleRefreshSeconds: 4 * 60,
        folderNameMap: ["sent": .sent, "trash": .trash, "bulk mail": .junk, "bulk": .junk, "draft": .drafts,
                        "drafts": .drafts, "archive": .archive],
        excludedFolders: [], requiresSentAppend: true, hasGmailExtensions: false)

    /// iCloud Mail (app passwords); its Notes folder is not mail.
    package static let icloud = Provider(
        id: "icloud", domains: ["icloud.com", "me.com", "mac.com"], hostSuffixes: ["mail.me.com"],
        imap: .init(host: "imap.mail.me.com", port: 993, security: .tls),
        smtp: .init(host: "smtp.mail.me.com", port: 587, security: .starttls),
        auth: "plain", maxConnections: 5, idleRefreshSeconds: 20 * 60,
        folderNameMap: ["sent messages": .sent, "deleted messages": .trash, "junk": .junk, "drafts": .drafts,
                        "archive": .archive],
        excludedFolders: ["notes"], requiresSentAppend: true, hasGmailExtensions: false)

    /// Any other IMAP server: conservative defaults.
    package static let custom = Provider(
        id: "custom", domains: [], hostSuffixes: [], imap: nil, smtp: nil, auth: "plain", maxConnections: 5,
        idleRefreshSeconds: 20 * 60, folderNameMap: [:], excludedFolders: [], requiresSentAppend: true,
        hasGmailExtensions: false)

    /// Every built-in provider.
    package static let all = [gmail, outlook, yahoo, icloud]

    /// The provider for an email address's domain, or `custom`.
    package static func provider(forEmail email: String) -> Provider {
        guard let at = email.lastIndex(of: "@") else { return custom }
        let domain = email[email.index(after: at)...].lowercased()
        return all.first { $0.domains.contains(domain) } ?? custom
    }

    /// The provider whose servers `host` belongs to, or nil.
    package static func provider(forHost host: String) -> Provider? {
        let h = host.lowercased()
        return all.first { p in p.hostSuffixes.contains { h == $0 || h.hasSuffix("." + $0) } }
    }

    /// Services recognised by domain that cannot be added (ProtonMail).
    package static let unsupported = [UnsupportedProvider.protonMail]

    /// The unsupported service an email address belongs to, if any.
    package static func unsupported(forEmail email: String) -> UnsupportedProvider? {
        guard let at = email.lastIndex(of: "@") else { return nil }
        let domain = email[email.index(after: at)...].lowercased()
        return unsupported.first { $0.domains.contains(domain) }
    }

    /// The provider with registry id `id`, or `custom`.
    package static func provider(id: String) -> Provider {
        all.first { $0.id == id } ?? custom
    }

    private static func gmailNames(prefix: String) -> [String: FolderRole] {
        ["sent mail": .sent, "drafts": .drafts, "trash": .trash, "bin": .trash, "spam": .junk, "all mail": .all,
         "starred": .flagged, "important": .important].reduce(into: [:]) { $0[prefix + $1.key] = $1.value }
    }
}
