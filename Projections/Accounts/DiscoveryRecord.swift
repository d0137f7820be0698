import EventModel

/// A cached discovery as the accounts view keeps it, by domain: the last `AccountSettingsDiscovered` that
/// looked the domain up on the network (not the registry, not a reuse of the cache) and found an IMAP server.
public struct DiscoveryRecord: BinaryField, Equatable, Sendable {
    /// What was found and by which step.
    public var found: AccountSettingsDiscovered
    /// The log sequence of that event.
    public var sequence: UInt64
    /// When the log recorded it (the cache entry's age counts from here).
    public var recordedAt: Timestamp

    public init(found: AccountSettingsDiscovered, sequence: UInt64, recordedAt: Timestamp) {
        self.found = found
        self.sequence = sequence
        self.recordedAt = recordedAt
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(UInt32(AccountSettingsDiscovered.schemaVersion))
        found.encode(to: &w)
        w.write(sequence)
        w.write(recordedAt)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let version: UInt32 = try r.read()
        found = try AccountSettingsDiscovered(from: &r, version: UInt16(truncatingIfNeeded: version))
        sequence = try r.read()
        recordedAt = try r.read()
    }
}

extension AccountSettingsDiscovered {
    /// The payload with its texts cut to `ViewBounds` (host names come from DNS and HTTP answers).
    var bounded: AccountSettingsDiscovered {
        var p = self
        p.domain = ViewBounds.text(domain)
        p.imapHost = imapHost.map { ViewBounds.text($0) }
        p.smtpHost = smtpHost.map { ViewBounds.text($0) }
        p.manual = manual.prefix(16).map { ViewBounds.text($0, maxBytes: 64) }
        p.steps = steps.prefix(16).map { ViewBounds.text($0, maxBytes: 64) }
        // A login template longer than a login may be is no login (the reuse then logs in with the address).
        p.imapUsernameTemplate = imapUsernameTemplate.flatMap { $0.utf8.count <= 1_024 ? $0 : nil }
        p.smtpUsernameTemplate = smtpUsernameTemplate.flatMap { $0.utf8.count <= 1_024 ? $0 : nil }
        p.imapAuthentication = imapAuthentication.prefix(16).map { ViewBounds.text($0, maxBytes: 64) }
        p.smtpAuthentication = smtpAuthentication.prefix(16).map { ViewBounds.text($0, maxBytes: 64) }
        return p
    }
}
