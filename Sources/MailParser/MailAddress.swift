/// A mailbox: an optional display name and an address.
package struct MailAddress: Sendable, Hashable, Codable {
    /// The display name (RFC 2047 decoded, unquoted), nil when there is none.
    package var name: String?
    /// The address as written (trimmed; `<>`, comments and routes removed).
    /// Empty when the source had a name but no address at all.
    package var email: String
    /// The original text of this mailbox when it was malformed and had to be
    /// interpreted; nil for well-formed mailboxes.
    package var raw: String?

    /// Creates an address.
    package init(name: String?, email: String, raw: String? = nil) {
        self.name = name
        self.email = email
        self.raw = raw
    }

    /// The address lowercased, for comparison and de-duplication.
    package var normalizedEmail: String {
        email.isASCIIOnly ? ASCII.lowercased(email) : email.lowercased()
    }

    /// Parses an address-list header value (`To`, `Cc`, `From`, ...). Groups
    /// are flattened; malformed entries are interpreted as well as possible.
    package static func parseList(_ value: String) -> [MailAddress] {
        var warnings = WarningList()
        return AddressParser.parseList(value, warnings: &warnings)
    }
}
