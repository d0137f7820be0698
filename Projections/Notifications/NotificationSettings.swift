import EventModel

/// The notification preferences the decision reads: defaults are every account and category on, no VIPs,
/// no muted threads, quiet hours off.
public struct NotificationSettings: Equatable, Sendable {
    /// Accounts whose notifications are off.
    public var disabledAccounts: Set<String>
    /// Categories whose notifications are off (uncategorized mail always passes).
    public var disabledCategories: Set<AICategory>
    /// Quiet hours, nil when off.
    public var quietHours: QuietHours?
    /// VIP senders, lowercased.
    public var vips: Set<String>
    /// Muted thread ids.
    public var mutedThreads: Set<String>

    /// The defaults, or the given preferences.
    public init(disabledAccounts: Set<String> = [], disabledCategories: Set<AICategory> = [], quietHours: QuietHours? = nil,
                vips: Set<String> = [], mutedThreads: Set<String> = []) {
        self.disabledAccounts = disabledAccounts
        self.disabledCategories = disabledCategories
        self.quietHours = quietHours
        self.vips = Set(vips.map { $0.lowercased() })
        self.mutedThreads = mutedThreads
    }

    /// True when `address` is a VIP (case-insensitive).
    public func isVIP(_ address: String) -> Bool { vips.contains(address.lowercased()) }
}

extension NotificationSettings: BinaryField {
    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(disabledAccounts.sorted())
        w.write(disabledCategories.map(\.rawValue).sorted().map { UInt32($0) })
        w.write(quietHours)
        w.write(vips.sorted())
        w.write(mutedThreads.sorted())
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let accounts: [String] = try r.read()
        let categories: [UInt32] = try r.read()
        let quiet: QuietHours? = try r.read()
        let vipList: [String] = try r.read()
        let muted: [String] = try r.read()
        self.init(disabledAccounts: Set(accounts),
                  disabledCategories: Set(categories.compactMap { UInt8(exactly: $0).flatMap(AICategory.init(rawValue:)) }),
                  quietHours: quiet, vips: Set(vipList), mutedThreads: Set(muted))
    }
}
