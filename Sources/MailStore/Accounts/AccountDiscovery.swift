import EventLog
import Foundation
import SyncCore

/// Finds an email address's servers (AC-MP-08): the built-in registry, then the ISPDB autoconfig document
/// (only the domain is sent), then DNS SRV records (RFC 6186), then the MX heuristic (mail handled by a known
/// provider), else manual setup with whatever was found. Each step has 10 s, the chain 30 s; every failure
/// (timeout, invalid XML, no record) is non-fatal and the chain goes on. It only reads: nothing is recorded.
/// `MAILSTORE_AUTOCONFIG_URL` replaces the ISPDB base URL, `MAILSTORE_DNS_SERVER` (ip:port) the resolver,
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
        /// `found`, `nothing`, `failed` or `skipped`.
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
        /// When the result is the log's cached discovery of the domain: when that lookup was made (ISO 8601 UTC).
        public var cachedAt: String?
        /// The log sequence of the cached `AccountSettingsDiscovered` reused, if any.
        public var cachedSequence: UInt64?
        /// Set for a service that cannot be used (ProtonMail).
        public var unsupported: String?
        public var seconds: Double
    }

    public var autoconfigBase: String
    /// The resolver as (IPv4 address, port).
    public var dnsServer: (String, UInt16)?
    public var stepSeconds: Double
    public var totalSeconds: Double

    /// The chain with the environment's overrides (or the ISPDB and the system resolver).
    public init(stepSeconds: Double = AccountDiscovery.defaultStepSeconds, totalSeconds: Double = AccountDiscovery.defaultTotalSeconds) {
        let env = ProcessInfo.processInfo.environment
        autoconfigBase = env["MAILSTORE_AUTOCONFIG_URL"] ?? "https://autoconfig.thunderbird.net/v1.1/"
        dnsServer = env["MAILSTORE_DNS_SERVER"].flatMap(AccountDiscovery.parseServer) ?? AccountDiscovery.systemResolver()
        // MAILSTORE_DISCOVERY_STEP_SECONDS shortens the per-step limit (tests of a server that never answers).
        self.stepSeconds = env["MAILSTORE_DISCOVERY_STEP_SECONDS"].flatMap(Double.init).map { max(0.2, min($0, stepSeconds)) } ?? stepSeconds
        self.totalSeconds = totalSeconds
    }

    /// Runs the chain for `email`.
    public func run(email: String) -> Result {
        let start = Date()
        let domain = AccountDiscovery.domain(of: email)
        var r = Result(email: email, domain: domain, steps: [], seconds: 0)
        if let u = ProviderRegistry.unsupported(forEmail: email) {
            r.unsupported = u.reason
            return r
        }
        func budget() -> Double { min(stepSeconds, max(0, totalSeconds - Date().timeIntervalSince(start))) }
        func record(_ name: String, _ body: (Double) throws -> (Provider.Server?, Provider.Server?)?) {
            let t = Date()
            let time = budget()
            guard time > 0.1 else {
                r.steps.append(Step(step: name, status: "skipped", detail: "the 30 s discovery budget is spent", seconds: 0))
                return
            }
            do {
                guard let (foundIMAP, foundSMTP) = try body(time) else {
                    r.steps.append(Step(step: name, status: "nothing", seconds: Date().timeIntervalSince(t)))
                    return
                }
                // Names from DNS and HTTP answers are hostile: only host names (letters, digits, '-', '.') are taken.
                let imap = foundIMAP.flatMap { AccountDiscovery.isHostName($0.host) ? $0 : nil }
                let smtp = foundSMTP.flatMap { AccountDiscovery.isHostName($0.host) ? $0 : nil }
                guard imap != nil || smtp != nil else {
                    r.steps.append(Step(step: name, status: "failed", detail: "the answer names no valid host name",
                                        seconds: Date().timeIntervalSince(t)))
                    return
                }
                r.steps.append(Step(step: name, status: "found", imap: imap.map(AccountDiscovery.show), smtp: smtp.map(AccountDiscovery.show),
                                    seconds: Date().timeIntervalSince(t)))
                if r.imapHost == nil, let imap {
                    (r.imapHost, r.imapPort, r.imapSecurity, r.source) = (imap.host, imap.port, imap.security.rawValue, name)
                }
                if r.smtpHost == nil, let smtp {
                    (r.smtpHost, r.smtpPort, r.smtpSecurity, r.smtpSource) = (smtp.host, smtp.port, smtp.security.rawValue, name)
                }
            } catch {
                r.steps.append(Step(step: name, status: "failed", detail: "\(error)", seconds: Date().timeIntervalSince(t)))
            }
        }
        let steps: [(String, (Double) throws -> (Provider.Server?, Provider.Server?)?)] = [
            ("registry", { _ in
                let p = ProviderRegistry.provider(forEmail: email)
                return p.imap == nil ? nil : (p.imap, p.smtp)
            }),
            ("ispdb", { t in try self.ispdb(domain: domain, timeout: t) }),
            ("dns-srv", { t in try self.srv(domain: domain, timeout: t) }),
            ("mx", { t in try self.mx(domain: domain, timeout: t) }),
        ]
        for (name, body) in steps {
            if r.imapHost != nil && r.smtpHost != nil { break }
            record(name, body)
        }
        r.seconds = Date().timeIntervalSince(start)
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

    // MARK: - Steps

    /// ISPDB: GET BASE/DOMAIN (the domain only, never the address).
    func ispdb(domain: String, timeout: Double) throws -> (Provider.Server?, Provider.Server?)? {
        guard domain.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        let url = autoconfigBase + (autoconfigBase.hasSuffix("/") ? "" : "/") + domain
        let body = try HTTPGet.fetch(url, timeout: timeout, limit: 1 << 20)
        guard let found = AutoconfigParser.parse(body) else { throw DiscoveryError.invalidAutoconfig }
        return found
    }

    /// RFC 6186: `_imaps._tcp` (TLS), `_imap._tcp` (STARTTLS), `_submission._tcp` (587 STARTTLS, 465 TLS).
    func srv(domain: String, timeout: Double) throws -> (Provider.Server?, Provider.Server?)? {
        guard let dnsServer else { throw DiscoveryError.noResolver }
        let deadline = Date().addingTimeInterval(timeout)
        func lookup(_ service: String) throws -> DNSMessage.SRV? {
            let bytes = try DNSClient.query(server: dnsServer, name: "\(service)._tcp.\(domain)", type: .srv,
                                            timeout: max(0.1, deadline.timeIntervalSinceNow))
            return try DNSMessage.srv(bytes.response, id: bytes.id).first { !$0.target.isEmpty }
        }
        var imap: Provider.Server?
        if let s = try lookup("_imaps") { imap = Provider.Server(host: s.target, port: s.port, security: .tls) }
        else if let s = try lookup("_imap") { imap = Provider.Server(host: s.target, port: s.port, security: .starttls) }
        let smtp = try lookup("_submission").map { Provider.Server(host: $0.target, port: $0.port, security: $0.port == 465 ? .tls : .starttls) }
        return imap == nil && smtp == nil ? nil : (imap, smtp)
    }

    /// The MX heuristic: mail for the domain handled by a known provider's exchangers means its servers.
    func mx(domain: String, timeout: Double) throws -> (Provider.Server?, Provider.Server?)? {
        guard let dnsServer else { throw DiscoveryError.noResolver }
        let bytes = try DNSClient.query(server: dnsServer, name: domain, type: .mx, timeout: timeout)
        for m in try DNSMessage.mx(bytes.response, id: bytes.id) {
            let known: [(String, Provider)] = [("google.com", ProviderRegistry.gmail), ("googlemail.com", ProviderRegistry.gmail),
                                               ("outlook.com", ProviderRegistry.outlook), ("yahoodns.net", ProviderRegistry.yahoo),
                                               ("icloud.com", ProviderRegistry.icloud), ("mail.me.com", ProviderRegistry.icloud)]
            if let p = known.first(where: { m.exchange == $0.0 || m.exchange.hasSuffix("." + $0.0) })?.1 { return (p.imap, p.smtp) }
        }
        return nil
    }

    // MARK: - Resolver

    static func parseServer(_ text: String) -> (String, UInt16)? {
        let parts = text.split(separator: ":")
        guard parts.count <= 2, let host = parts.first, let port = parts.count == 2 ? UInt16(parts[1]) : 53 else { return nil }
        return (String(host), port)
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
