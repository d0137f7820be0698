extension MailAddress {
    /// The sender among a message's `From` addresses: the first with an `@`, else the first (as
    /// `EmailAddress.sender(of:)` picks it from an event's addresses).
    package static func sender(of from: [MailAddress]) -> MailAddress? {
        from.first { $0.email.utf8.contains(UInt8(ascii: "@")) } ?? from.first
    }
}
