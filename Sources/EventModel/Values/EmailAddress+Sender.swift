extension EmailAddress {
    /// The sender among a message's `From` addresses: the first with an `@`, else the first. Bare words before it
    /// (no name, no `@`) are the unquoted display name an older parse split off `Smith, John <john@example.com>`
    /// (a mailbox `Smith` without a domain, then `John`'s): they are put back in front of its name (`Smith, John`),
    /// so events recorded before the parser kept such a name whole give the sender it gives now.
    public static func sender(of from: [EmailAddress]) -> EmailAddress? {
        guard let at = from.firstIndex(where: { $0.email.utf8.contains(UInt8(ascii: "@")) }) else { return from.first }
        var sender = from[at]
        let before = from[..<at]
        if !before.isEmpty, before.allSatisfy({ $0.name == nil && !$0.email.isEmpty && !$0.email.utf8.contains(UInt8(ascii: " ")) }) {
            sender.name = (before.map(\.email) + [sender.name].compactMap { $0 }).joined(separator: ", ")
        }
        return sender
    }
}
