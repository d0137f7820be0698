import EventModel
import Foundation
import Projections

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
        return AccountDiscovery.Result(cached: record, email: email)
    }
}

extension AccountDiscovery {
    /// The lowercased domain of `email` (after its last `@`).
    static func domain(of email: String) -> String {
        email.split(separator: "@").last.map { $0.lowercased() } ?? ""
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
        cachedAt = when
        cachedSequence = record.sequence
    }

    /// The event recording this result for the account `name`, with the settings given by hand.
    func payload(account name: String, manual: [String]) -> AccountSettingsDiscovered {
        AccountSettingsDiscovered(name: name, domain: domain, imapHost: imapHost, imapPort: imapPort.map(UInt32.init),
                                  imapSecurity: imapSecurity, imapSource: source, smtpHost: smtpHost,
                                  smtpPort: smtpPort.map(UInt32.init), smtpSecurity: smtpSecurity, smtpSource: smtpSource,
                                  manual: manual, steps: steps.map { "\($0.step):\($0.status)" }, cachedFrom: cachedSequence)
    }
}
