import SyncCore

/// RFC 6186 section 6: a DNS answer is not authenticated, so an SRV record naming a server outside the email's
/// domain (`_imaps._tcp.example.com` pointing at `imap.elsewhere.net`) could be anyone's; the certificate is then
/// checked against the name the answer gave, which proves nothing. Such a target is used only once the user
/// confirms it by giving it (`--host`, `--smtp-host`). A target that is the domain or a name under it is used:
/// its certificate must name a host of the user's own domain.
extension AccountDiscovery {
    /// Whether `host` is `domain` or a name under it (label-wise: `imap.example.com` is under `example.com`,
    /// `imap.notexample.com` is not).
    package static func isWithin(_ host: String, domain: String) -> Bool {
        let h = host.lowercased(), d = domain.lowercased()
        return !d.isEmpty && (h == d || h.hasSuffix("." + d))
    }
}

extension AccountDiscovery.Result {
    /// Takes out of an SRV step's answer the servers outside `domain` (setting `imap`/`smtp` to nil), keeping as
    /// `unconfirmed` those that would have been used (no server found by an earlier step); returns what was held
    /// back, for the step's detail, or nil when nothing was.
    mutating func hold(imap: inout AutoconfigParser.Entry?, smtp: inout AutoconfigParser.Entry?) -> String? {
        var held: [String] = []
        if let s = imap?.server, !AccountDiscovery.isWithin(s.host, domain: domain) {
            if imapHost == nil { note(service: "imap", host: s.host, port: s.port, security: s.security.rawValue) }
            held.append(s.host)
            imap = nil
        }
        if let s = smtp?.server, !AccountDiscovery.isWithin(s.host, domain: domain) {
            if smtpHost == nil { note(service: "smtp", host: s.host, port: s.port, security: s.security.rawValue) }
            held.append(s.host)
            smtp = nil
        }
        guard !held.isEmpty else { return nil }
        return "\(held.joined(separator: " and ")) \(held.count == 1 ? "is" : "are") not under \(domain): not used unless you give "
            + "\(held.count == 1 ? "it" : "them") by hand (DNS alone cannot say another domain's server is yours)"
    }

    /// Adds a server to `unconfirmed`.
    private mutating func note(service: String, host: String, port: UInt16, security: String) {
        unconfirmed = (unconfirmed ?? []) + [AccountDiscovery.Unconfirmed(service: service, host: host, port: port, security: security)]
    }

    /// A cached lookup recorded before SRV targets outside the domain were held back (a log of an older mailstore):
    /// such a target becomes unconfirmed rather than used, so a poisoned answer cached then is not reused.
    mutating func holdCachedTargets() {
        if source == "dns-srv", let host = imapHost, !AccountDiscovery.isWithin(host, domain: domain) {
            note(service: "imap", host: host, port: imapPort ?? 0, security: imapSecurity ?? "tls")
            imapHost = nil
            imapPort = nil
            imapSecurity = nil
            source = nil
            imapUsername = nil
            imapUsernameTemplate = nil
            imapAuthentication = nil
        }
        if smtpSource == "dns-srv", let host = smtpHost, !AccountDiscovery.isWithin(host, domain: domain) {
            note(service: "smtp", host: host, port: smtpPort ?? 0, security: smtpSecurity ?? "starttls")
            smtpHost = nil
            smtpPort = nil
            smtpSecurity = nil
            smtpSource = nil
            smtpUsername = nil
            smtpUsernameTemplate = nil
            smtpAuthentication = nil
        }
    }

    /// The unconfirmed server for `service` (`imap`, `smtp`), if any.
    public func unconfirmedServer(_ service: String) -> AccountDiscovery.Unconfirmed? {
        unconfirmed?.first { $0.service == service }
    }

    /// What the user must say to use the unconfirmed servers that are needed (`imap` when no IMAP server was found,
    /// `smtp` when no SMTP one was and `smtpGiven` is false), as an error for `account add`; nil when none is needed.
    func confirmationProblem(smtpGiven: Bool) -> String? {
        var options: [String] = []
        var named: [String] = []
        if imapHost == nil, let u = unconfirmedServer("imap") {
            options.append("--host \(u.host) --port \(u.port) --security \(u.security)")
            named.append("IMAP server \(u.security)://\(u.host):\(u.port)")
        }
        if smtpHost == nil, !smtpGiven, let u = unconfirmedServer("smtp") {
            options.append("--smtp-host \(u.host) --smtp-port \(u.port) --smtp-security \(u.security)")
            named.append("SMTP server \(u.security)://\(u.host):\(u.port)")
        }
        guard !options.isEmpty else { return nil }
        return "DNS (SRV) names the \(named.joined(separator: " and ")) for \(domain), outside that domain: a DNS answer alone cannot "
            + "say that another domain's server is yours (RFC 6186 section 6), so the password is not sent there unless you confirm it. "
            + "If it is your provider's, give it by hand: \(options.joined(separator: " "))"
    }
}
