import EventLog
import Foundation
import SecureTransport
#if canImport(Glibc)
import Glibc
#endif
import SyncCore

/// Finds an email address's servers (AC-MP-08): the built-in registry, then the ISPDB autoconfig document
/// (only the domain is sent), then DNS SRV records (RFC 6186), then the MX heuristic (mail handled by a known
/// provider), else manual setup with whatever was found. Each step has 10 s, the chain 30 s; every failure
/// (timeout, invalid XML, no record) is non-fatal and the chain goes on. It only reads: nothing is recorded.
/// The domain is asked for in its ASCII form (a non-ASCII label as IDNA's `xn--` Punycode, `asciiDomain`).
/// `MAILSTORE_AUTOCONFIG_URL` replaces the ISPDB base URL, `MAILSTORE_DNS_SERVER` (IPv4[:port]) the resolver,
/// `MAILSTORE_DISCOVERY_STEP_SECONDS` shortens the per-step limit. `MailStore.discoverServers` adds the log's
/// cache of earlier lookups in front of the network steps.
public struct AccountDiscovery: Sendable {
    /// The per-step limit: 10 s.
    public static let defaultStepSeconds: Double = 10
    /// The limit of the whole chain: 30 s.
    public static let defaultTotalSeconds: Double = 30

    /// One step of the chain.
    public struct Step: Sendable, Equatable, Encodable {
        /// `registry`, `ispdb`, `dns-srv` or `mx`.
        public var step: String
        /// `found`, `nothing`, `failed`, `skipped`, or `unconfirmed` (DNS SRV named servers outside the domain only).
        public var status: String
        public var detail: String?
        public var imap: String?
        public var smtp: String?
        public var seconds: Double
    }

    /// What the chain found.
    public struct Result: Sendable, Equatable, Encodable {
        public var email: String
        public var domain: String
        public var steps: [Step]
        /// The servers found (a step's result, or partial results of several); nil: manual setup.
        public var imapHost: String?
        public var imapPort: UInt16?
        public var imapSecurity: String?
        public var smtpHost: String?
        public var smtpPort: UInt16?
        public var smtpSecurity: String?
        /// The step the IMAP settings came from.
        public var source: String?
        /// The step the SMTP settings came from.
        public var smtpSource: String?
        /// The IMAP login the autoconfig document names (its `<username>` with the placeholders filled in), if any.
        public var imapUsername: String?
        /// The IMAP server's `<authentication>` values in the autoconfig document (`password-cleartext`, `OAuth2`, ...).
        public var imapAuthentication: [String]?
        /// The IMAP server's `<username>` as the autoconfig document writes it, placeholders not filled in: recorded, so
        /// a reuse of this lookup from the cache fills them in for its own address.
        public var imapUsernameTemplate: String?
        /// The SMTP server's `<username>` as written.
        public var smtpUsernameTemplate: String?
        /// The SMTP login the autoconfig document names, if any.
        public var smtpUsername: String?
        /// The SMTP server's `<authentication>` values in the autoconfig document.
        public var smtpAuthentication: [String]?
        /// When the result is the log's cached discovery of the domain: when that lookup was made (ISO 8601 UTC).
        public var cachedAt: String?
        /// The log sequence of the cached `AccountSettingsDiscovered` reused, if any.
        public var cachedSequence: UInt64?
        /// Set for a service that cannot be used (ProtonMail).
        public var unsupported: String?
        /// Servers a DNS SRV answer named outside the address's domain (RFC 6186 section 6): DNS alone cannot say
        /// that another domain's server is the user's, so they are shown but not used until the user gives them
        /// (`--host`, `--smtp-host`); never recorded. Nil when there are none.
        public var unconfirmed: [Unconfirmed]?
        public var seconds: Double
    }

    /// A server named by a DNS SRV record whose target is neither the email's domain nor a name under it.
    public struct Unconfirmed: Sendable, Equatable, Encodable {
        /// `imap` or `smtp`.
        public var service: String
        public var host: String
        public var port: UInt16
        /// `tls` or `starttls`.
        public var security: String
    }

    public var autoconfigBase: String
    /// The resolver as (IPv4 address, port).
    public var dnsServer: (String, UInt16)?
    /// Why `MAILSTORE_DNS_SERVER` was not taken (it is malformed): the DNS steps fail with it, and no other
    /// resolver is asked instead.
    var resolverProblem: DiscoveryError?
    public var stepSeconds: Double
    public var totalSeconds: Double

    /// The chain with the environment's overrides (or the ISPDB and the system resolver).
    public init(stepSeconds: Double = AccountDiscovery.defaultStepSeconds, totalSeconds: Double = AccountDiscovery.defaultTotalSeconds) {
        let env = ProcessInfo.processInfo.environment
        autoconfigBase = env["MAILSTORE_AUTOCONFIG_URL"] ?? "https://autoconfig.thunderbird.net/v1.1/"
        if let text = env["MAILSTORE_DNS_SERVER"] {
            do {
                dnsServer = try AccountDiscovery.parseServer(text)
            } catch {
                resolverProblem = error
            }
        } else {
            dnsServer = AccountDiscovery.systemResolver()
        }
        // MAILSTORE_DISCOVERY_STEP_SECONDS shortens the per-step limit (tests of a server that never answers).
        self.stepSeconds = env["MAILSTORE_DISCOVERY_STEP_SECONDS"].flatMap(Double.init).map { max(0.2, min($0, stepSeconds)) } ?? stepSeconds
        self.totalSeconds = totalSeconds
    }

    /// Runs the chain for `email`.
    public func run(email: String) -> Result {
        let start = Deadline.now()
        let domain = AccountDiscovery.domain(of: email)
        var r = Result(email: email, domain: domain, steps: [], seconds: 0)
        if let u = ProviderRegistry.unsupported(forEmail: email) {
            r.unsupported = u.reason
            return r
        }
        // A domain that is no host name is never sent anywhere (the commands refuse such an address first).
        guard !domain.isEmpty else {
            r.steps.append(Step(step: "domain", status: "failed", detail: AccountDiscovery.domainProblem(of: email), seconds: 0))
            return r
        }
        func budget() -> Double { min(stepSeconds, max(0, totalSeconds - (Deadline.now() - start))) }
        func record(_ name: String, _ body: (Double) throws -> Found?) {
            let t = Deadline.now()
            let time = budget()
            guard time > 0.1 else {
                r.steps.append(Step(step: name, status: "skipped", detail: "the 30 s discovery budget is spent", seconds: 0))
                return
            }
            do {
                guard let (foundIMAP, foundSMTP) = try body(time) else {
                    r.steps.append(Step(step: name, status: "nothing", seconds: Deadline.now() - t))
                    return
                }
                // Names from DNS and HTTP answers are hostile: only host names (letters, digits, '-', '.') are taken.
                var imapEntry = foundIMAP.flatMap { AccountDiscovery.isHostName($0.server.host) ? $0 : nil }
                var smtpEntry = foundSMTP.flatMap { AccountDiscovery.isHostName($0.server.host) ? $0 : nil }
                guard imapEntry != nil || smtpEntry != nil else {
                    r.steps.append(Step(step: name, status: "failed", detail: "the answer names no valid host name",
                                        seconds: Deadline.now() - t))
                    return
                }
                // RFC 6186 section 6: an SRV target outside the domain is the user's to confirm, never taken on DNS's word.
                let held = name == "dns-srv" ? r.hold(imap: &imapEntry, smtp: &smtpEntry) : nil
                if held != nil {
                    guard imapEntry != nil || smtpEntry != nil else {
                        r.steps.append(Step(step: name, status: "unconfirmed", detail: held, imap: foundIMAP.map { AccountDiscovery.show($0.server) },
                                            smtp: foundSMTP.map { AccountDiscovery.show($0.server) }, seconds: Deadline.now() - t))
                        return
                    }
                }
                let (imap, smtp) = (imapEntry?.server, smtpEntry?.server)
                r.steps.append(Step(step: name, status: "found", detail: held, imap: imap.map(AccountDiscovery.show),
                                    smtp: smtp.map(AccountDiscovery.show), seconds: Deadline.now() - t))
                if r.imapHost == nil, let imap, let imapEntry {
                    (r.imapHost, r.imapPort, r.imapSecurity, r.source) = (imap.host, imap.port, imap.security.rawValue, name)
                    r.imapUsername = imapEntry.username.flatMap { AccountDiscovery.username($0, email: email) }
                    // Kept for the cache only when it gave a login (a template with a control character, an unknown
                    // placeholder or too long a result is not recorded: a reuse logs in with the address, as here).
                    r.imapUsernameTemplate = r.imapUsername == nil ? nil : imapEntry.username
                    r.imapAuthentication = imapEntry.authentication.isEmpty ? nil : imapEntry.authentication
                }
                if r.smtpHost == nil, let smtp, let smtpEntry {
                    (r.smtpHost, r.smtpPort, r.smtpSecurity, r.smtpSource) = (smtp.host, smtp.port, smtp.security.rawValue, name)
                    r.smtpUsername = smtpEntry.username.flatMap { AccountDiscovery.username($0, email: email) }
                    r.smtpUsernameTemplate = r.smtpUsername == nil ? nil : smtpEntry.username
                    r.smtpAuthentication = smtpEntry.authentication.isEmpty ? nil : smtpEntry.authentication
                }
            } catch {
                r.steps.append(Step(step: name, status: "failed", detail: "\(error)", seconds: Deadline.now() - t))
            }
        }
        let steps: [(String, (Double) throws -> Found?)] = [
            ("registry", { _ in
                let p = ProviderRegistry.provider(forEmail: email)
                return p.imap == nil ? nil : AccountDiscovery.found(p.imap, p.smtp)
            }),
            ("ispdb", { t in try self.ispdb(domain: domain, timeout: t) }),
            ("dns-srv", { t in try self.srv(domain: domain, timeout: t) }),
            ("mx", { t in try self.mx(domain: domain, timeout: t) }),
        ]
        for (name, body) in steps {
            if r.imapHost != nil && r.smtpHost != nil { break }
            record(name, body)
        }
        r.seconds = Deadline.now() - start
        return r
    }

    /// A DNS host name: 1-253 characters, labels of 1-63 ASCII letters, digits and '-' (not first or last).
    package static func isHostName(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, host.utf8.count <= 253, !labels.isEmpty else { return false }
        return labels.allSatisfy { l in
            !l.isEmpty && l.utf8.count <= 63 && l.first != "-" && l.last != "-"
                && l.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
        }
    }

    static func show(_ s: Provider.Server) -> String { "\(s.security.rawValue)://\(s.host):\(s.port)" }

    /// What a step found: an IMAP and an SMTP server, each with the login details an autoconfig document gives.
    typealias Found = (AutoconfigParser.Entry?, AutoconfigParser.Entry?)

    static func found(_ imap: Provider.Server?, _ smtp: Provider.Server?) -> Found {
        (imap.map { AutoconfigParser.Entry(server: $0) }, smtp.map { AutoconfigParser.Entry(server: $0) })
    }

    /// The most bytes of a login name taken from an autoconfig document (after its placeholders are filled in).
    static let maxUsernameBytes = 254

    /// An autoconfig `<username>` for `email`: Thunderbird's placeholders %EMAILADDRESS%, %EMAILLOCALPART% and
    /// %EMAILDOMAIN% filled in, any other text as given; nil (the address is the login) when the result is empty,
    /// over `maxUsernameBytes`, or holds white space, control or format characters, or a `%` left unfilled.
    static func username(_ template: String, email: String) -> String? {
        let at = email.lastIndex(of: "@") ?? email.endIndex
        let local = String(email[..<at]), domain = at < email.endIndex ? String(email[email.index(after: at)...]) : ""
        let placeholders = [("%EMAILADDRESS%", email), ("%EMAILLOCALPART%", local), ("%EMAILDOMAIN%", domain)]
        // A placeholder not known here (a `%` left in the template) leaves the login to the address.
        guard !placeholders.reduce(template, { $0.replacingOccurrences(of: $1.0, with: "") }).contains("%") else { return nil }
        let name = placeholders.reduce(template) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        guard !name.isEmpty, name.utf8.count <= maxUsernameBytes,
              !name.unicodeScalars.contains(where: { AccountDiscovery.isInvisible($0) || $0.properties.isWhitespace }) else { return nil }
        return name
    }

    /// Whether `scalar` is a control or format character (C0, C1, bidi controls, zero-width characters, ...):
    /// never part of a host name, an address or a login.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: true
        default: false
        }
    }

    /// mailstore's `--auth` for an autoconfig server's `<authentication>` values: `plain` when a password is offered
    /// in clear over the TLS connection (`password-cleartext`, or the older `plain`), else `oauth2` when `OAuth2` is;
    /// nil when none of them is one mailstore does (`password-encrypted` is CRAM-MD5, and NTLM, GSSAPI,
    /// `TLS-client-cert` and `client-IP-address` are not done) or none is named.
    package static func auth(forAuthentication values: [String]) -> String? {
        let lowered = values.map { $0.lowercased() }
        if lowered.contains(where: { $0 == "password-cleartext" || $0 == "plain" }) { return "plain" }
        if lowered.contains("oauth2") { return "oauth2" }
        return nil
    }

    // MARK: - Steps

    /// ISPDB: GET BASE/DOMAIN (the domain only, never the address; `domain` is a host name in ASCII).
    func ispdb(domain: String, timeout: Double) throws -> Found? {
        guard AccountDiscovery.isHostName(domain) else { return nil }
        let url = autoconfigBase + (autoconfigBase.hasSuffix("/") ? "" : "/") + domain
        let body = try HTTPGet.fetch(url, timeout: timeout, limit: 1 << 20)
        guard let document = AutoconfigParser.read(body) else { throw DiscoveryError.invalidAutoconfig }
        guard document.imap != nil || document.smtp != nil else {
            throw document.plaintextSeen ? DiscoveryError.noEncryptedServer : DiscoveryError.invalidAutoconfig
        }
        return (document.imap, document.smtp)
    }

    /// RFC 6186: `_imaps._tcp` (TLS), `_imap._tcp` (STARTTLS), `_submission._tcp` (587 STARTTLS, 465 TLS). A record
    /// with target "." (the service is not offered) or port 0 (nothing can be reached there) is no server.
    func srv(domain: String, timeout: Double) throws -> Found? {
        guard let dnsServer else { throw resolverProblem ?? DiscoveryError.noResolver }
        let deadline = Deadline(secondsFromNow: timeout)
        func lookup(_ service: String) throws -> DNSMessage.SRV? {
            let bytes = try DNSClient.query(server: dnsServer, name: "\(service)._tcp.\(domain)", type: .srv,
                                            timeout: max(0.1, deadline.secondsLeft))
            return try DNSMessage.srv(bytes.response, id: bytes.id).first { !$0.target.isEmpty && $0.port != 0 }
        }
        var imap: Provider.Server?
        if let s = try lookup("_imaps") { imap = Provider.Server(host: s.target, port: s.port, security: .tls) }
        else if let s = try lookup("_imap") { imap = Provider.Server(host: s.target, port: s.port, security: .starttls) }
        let smtp = try lookup("_submission").map { Provider.Server(host: $0.target, port: $0.port, security: $0.port == 465 ? .tls : .starttls) }
        return imap == nil && smtp == nil ? nil : AccountDiscovery.found(imap, smtp)
    }

    /// The MX heuristic: mail for the domain handled by a known provider's exchangers means its servers.
    func mx(domain: String, timeout: Double) throws -> Found? {
        guard let dnsServer else { throw resolverProblem ?? DiscoveryError.noResolver }
        let bytes = try DNSClient.query(server: dnsServer, name: domain, type: .mx, timeout: timeout)
        for m in try DNSMessage.mx(bytes.response, id: bytes.id) {
            let known: [(String, Provider)] = [("google.com", ProviderRegistry.gmail), ("googlemail.com", ProviderRegistry.gmail),
                                               ("outlook.com", ProviderRegistry.outlook), ("yahoodns.net", ProviderRegistry.yahoo),
                                               ("icloud.com", ProviderRegistry.icloud), ("mail.me.com", ProviderRegistry.icloud)]
            if let p = known.first(where: { m.exchange == $0.0 || m.exchange.hasSuffix("." + $0.0) })?.1 {
                return AccountDiscovery.found(p.imap, p.smtp)
            }
        }
        return nil
    }

    // MARK: - Resolver

    /// `MAILSTORE_DNS_SERVER`'s value: an IPv4 address in dotted decimal, with `:PORT` (1-65535, digits only) or
    /// port 53. Anything else (white space, a port out of range or with other characters, an IPv6 address, which
    /// the resolver client does not do) is refused with why: it is never replaced by the system's resolver.
    static func parseServer(_ text: String) throws(DiscoveryError) -> (String, UInt16) {
        let shown = String(text.unicodeScalars.prefix(80).map(Character.init))
        let why = "MAILSTORE_DNS_SERVER=\"\(shown)\""
        if text.hasPrefix("[") || text.filter({ $0 == ":" }).count > 1 {
            throw .badResolver("\(why) is IPv6, which mailstore's DNS client does not do: give an IPv4 address such as 127.0.0.1:53")
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let host = String(parts[0])
        var probe = in_addr()
        guard host.utf8.count <= 15, host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              host.split(separator: ".", omittingEmptySubsequences: false).count == 4, inet_pton(AF_INET, host, &probe) == 1 else {
            throw .badResolver("\(why) does not start with an IPv4 address: give IPV4[:PORT], e.g. 127.0.0.1:53, or unset it")
        }
        guard parts.count == 2 else { return (host, 53) }
        let port = parts[1]
        guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt16(port), number > 0 else {
            throw .badResolver("\(why) has no port 1-65535 after the ':': give IPV4[:PORT], e.g. 127.0.0.1:53, or unset it")
        }
        return (host, number)
    }

    /// The most of a resolver file read: 64 KiB (glibc uses its first three `nameserver` lines; a file's size is
    /// not trusted, even the system's).
    package static let resolverFileMaxBytes = 1 << 16

    /// The first IPv4 `nameserver` of `path` (/etc/resolv.conf); nil when it names none, or cannot be read, or is
    /// over `resolverFileMaxBytes`.
    package static func systemResolver(path: String = "/etc/resolv.conf") -> (String, UInt16)? {
        guard let bytes = try? BoundedFile.read(path, maxBytes: resolverFileMaxBytes) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if f.count >= 2, f[0] == "nameserver", f[1].contains("."), !f[1].contains(":") { return (String(f[1]), 53) }
        }
        return nil
    }
}
