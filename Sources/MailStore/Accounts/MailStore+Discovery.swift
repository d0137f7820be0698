import DomainNames
import EventModel
import Foundation
import Projections
import SyncCore

extension MailStore {
    /// How long a discovery cached in the log is trusted: 30 days from the lookup. An older entry is looked up
    /// again (and the new result cached when the account is added).
    public static let discoveryCacheSeconds: Double = 30 * 86_400

    /// The servers for `email`: for a domain the registry does not know, the log's cached discovery of the
    /// domain when one younger than `discoveryCacheSeconds` exists (and `useCache`), else the discovery chain
    /// (registry, ISPDB, DNS SRV, MX). Reads only; `addAccount` records what the account took.
    public func discoverServers(email: String, useCache: Bool = true,
                                chain: AccountDiscovery = AccountDiscovery()) throws -> AccountDiscovery.Result {
        if useCache, !AccountSettings.registryKnows(email: email), let cached = try cachedDiscovery(email: email) {
            return cached
        }
        return chain.run(email: email)
    }

    /// The log's cached discovery of `email`'s domain if it is younger than `discoveryCacheSeconds`, or nil.
    public func cachedDiscovery(email: String, now: Date = Date()) throws -> AccountDiscovery.Result? {
        let domain = AccountDiscovery.domain(of: email)
        guard !domain.isEmpty, let record = try views().discovery(domain: domain) else { return nil }
        let age = now.timeIntervalSince1970 - Double(record.recordedAt.microseconds) / 1_000_000
        guard age < MailStore.discoveryCacheSeconds else { return nil }
        var result = AccountDiscovery.Result(cached: record, email: email)
        result.holdCachedTargets()
        return result
    }
}

extension AccountDiscovery {
    /// The domain of `email` (after its last `@`) as DNS and the autoconfig server are asked for it (`asciiDomain`);
    /// "" when it is not a host name.
    static func domain(of email: String) -> String {
        guard let at = email.lastIndex(of: "@") else { return "" }
        return (try? asciiDomain(String(email[email.index(after: at)...]))) ?? ""
    }

    /// Why the domain of `email` cannot be looked up, or nil when it can.
    static func domainProblem(of email: String) -> String? {
        guard let at = email.lastIndex(of: "@") else { return "\"\(email)\" has no @domain" }
        do {
            _ = try asciiDomain(String(email[email.index(after: at)...]))
            return nil
        } catch {
            return error.description
        }
    }

    /// The dots IDNA (UTS 46) takes as label separators besides ".": ideographic and full-width full stops.
    private static let dots: Set<Unicode.Scalar> = ["\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// `domain` as a DNS host name in ASCII, lower-cased: labels of 1-63 letters, digits and '-' (not first or
    /// last), at most 253 bytes in all, no empty label (no trailing dot). A non-ASCII label is taken when it is
    /// letters, combining marks, digits and '-' only (not starting with a mark): lower-cased, composed (NFC) and
    /// written as IDNA's A-label, `xn--` and its Punycode (RFC 3492), so `bücher.test` is `xn--bcher-kva.test`. This
    /// is the core of IDNA (UTS 46) without its full mapping table: a label it would map otherwise (compatibility
    /// characters, symbols) is refused rather than guessed at. Throws what is wrong, for the user.
    package static func asciiDomain(_ domain: String) throws(AccountError) -> String {
        let shown = String(String.UnicodeScalarView(domain.unicodeScalars.prefix(100))).unicodeScalars
            .map { AccountDiscovery.isInvisible($0) ? "<U+\(String($0.value, radix: 16, uppercase: true))>" : String($0) }.joined()
        func refuse(_ why: String) -> AccountError { .invalid("the domain \"\(shown)\" is not a host name: \(why)") }
        guard !domain.isEmpty else { throw .invalid("the address has no domain after its @") }
        guard domain.utf8.count <= 1_024 else { throw refuse("it is over 253 bytes") }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: domain.unicodeScalars.map { dots.contains($0) ? "." : $0 })
        var labels: [String] = []
        for label in String(text).split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw refuse("it has an empty label (two dots in a row, or a dot at an end)") }
            guard label.first != "-", label.last != "-" else { throw refuse("the label \"\(label)\" starts or ends with '-'") }
            if let bad = label.unicodeScalars.first(where: { !($0.isASCII ? isLDH($0) : isLabelLetter($0)) }) {
                let name = AccountDiscovery.isInvisible(bad) || bad.properties.isWhitespace ? "" : " \"\(bad)\""
                throw refuse("it holds\(name) (U+\(String(format: "%04X", bad.value))), and a host name is letters, digits, '-' and dots only")
            }
            let lowered = label.lowercased()
            if lowered.unicodeScalars.allSatisfy(\.isASCII) {
                guard lowered.utf8.count <= 63 else { throw refuse("the label \"\(lowered.prefix(20))…\" is over 63 bytes") }
                labels.append(lowered)
                continue
            }
            let composed = lowered.precomposedStringWithCanonicalMapping
            guard let first = composed.unicodeScalars.first, ![.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory) else {
                throw refuse("the label \"\(label)\" starts with a combining mark")
            }
            guard let code = Punycode.encode(Array(composed.unicodeScalars)), code.utf8.count + 4 <= 63 else {
                throw refuse("the label \"\(label)\" is over 63 bytes in its ASCII form (xn--...)")
            }
            labels.append("xn--" + code)
        }
        let ascii = labels.joined(separator: ".")
        guard ascii.utf8.count <= 253 else { throw refuse("it is over 253 bytes\(ascii == domain ? "" : " in its ASCII form")") }
        return ascii
    }

    /// An ASCII letter, digit or '-'.
    private static func isLDH(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-"
    }

    /// A letter, combining mark or decimal digit beyond ASCII: what an internationalised label may hold here.
    private static func isLabelLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: true
        default: false
        }
    }
}

extension AccountDiscovery.Result {
    /// The cached lookup `record` as a result for `email`: one step, `cache`.
    init(cached record: DiscoveryRecord, email: String) {
        let f = record.found
        func show(_ host: String?, _ port: UInt32?, _ security: String?) -> String? {
            host.map { "\(security ?? "tls")://\($0):\(port ?? 0)" }
        }
        self.init(email: email, domain: f.domain, steps: [], seconds: 0)
        let when = record.recordedAt.iso8601
        steps = [AccountDiscovery.Step(step: "cache", status: "found",
                                       detail: "looked up \(String(when.prefix(19))) UTC (\(f.steps.joined(separator: " ")))",
                                       imap: show(f.imapHost, f.imapPort, f.imapSecurity),
                                       smtp: show(f.smtpHost, f.smtpPort, f.smtpSecurity), seconds: 0)]
        imapHost = f.imapHost
        imapPort = f.imapPort.flatMap { UInt16(exactly: $0) }
        imapSecurity = f.imapSecurity
        source = f.imapSource
        smtpHost = f.smtpHost
        smtpPort = f.smtpPort.flatMap { UInt16(exactly: $0) }
        smtpSecurity = f.smtpSecurity
        smtpSource = f.smtpSource
        // The document's logins filled in for this address (a lookup made for bob@ serves carol@), and its methods.
        imapUsernameTemplate = f.imapUsernameTemplate
        imapUsername = f.imapUsernameTemplate.flatMap { AccountDiscovery.username($0, email: email) }
        imapAuthentication = f.imapAuthentication.isEmpty ? nil : f.imapAuthentication
        smtpUsernameTemplate = f.smtpUsernameTemplate
        smtpUsername = f.smtpUsernameTemplate.flatMap { AccountDiscovery.username($0, email: email) }
        smtpAuthentication = f.smtpAuthentication.isEmpty ? nil : f.smtpAuthentication
        cachedAt = when
        cachedSequence = record.sequence
    }

    /// The event recording this result for the account `name`, with the settings given by hand.
    func payload(account name: String, manual: [String]) -> AccountSettingsDiscovered {
        AccountSettingsDiscovered(name: name, domain: domain, imapHost: imapHost, imapPort: imapPort.map(UInt32.init),
                                  imapSecurity: imapSecurity, imapSource: source, smtpHost: smtpHost,
                                  smtpPort: smtpPort.map(UInt32.init), smtpSecurity: smtpSecurity, smtpSource: smtpSource,
                                  manual: manual, steps: steps.map { "\($0.step):\($0.status)" }, cachedFrom: cachedSequence,
                                  imapUsernameTemplate: imapUsernameTemplate, imapAuthentication: imapAuthentication ?? [],
                                  smtpUsernameTemplate: smtpUsernameTemplate, smtpAuthentication: smtpAuthentication ?? [])
    }
}
