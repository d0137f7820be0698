import EventModel

/// Learned sender rules: the user's corrections, by sender address (`ann@example.org`) or whole domain
/// (`@example.org`). The newest correction for a sender wins.
public struct SenderRules: Sendable, Equatable {
    private var rules: [String: AICategory] = [:]

    /// No rules.
    public init() {}

    /// Records that mail from `sender` (an address, or `@domain`) goes to `category`.
    public mutating func learn(_ sender: String, _ category: AICategory) {
        rules[sender.lowercased()] = category
    }

    /// How many rules there are.
    public var count: Int { rules.count }

    /// The rule for `address` (lowercased): its own, else its domain's.
    func match(_ address: String) -> (key: String, category: AICategory)? {
        guard !rules.isEmpty, !address.isEmpty else { return nil }
        if let c = rules[address] { return (address, c) }
        if let at = address.lastIndex(of: "@") {
            let domain = String(address[at...])
            if let c = rules[domain] { return (domain, c) }
        }
        return nil
    }
}
