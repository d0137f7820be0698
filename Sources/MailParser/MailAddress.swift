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

    /// The address lowercased, for comparison and de-duplication where case never tells two apart (a sender, a
    /// thread's participants, the user's own addresses). Recipients are told apart by ``mailboxKey``.
    package var normalizedEmail: String {
        email.isASCIIOnly ? ASCII.lowercased(email) : email.lowercased()
    }

    /// The address as a mail system tells mailboxes apart, for de-duplicating the recipients of a message: the local
    /// part as written (RFC 5321 §2.4: it MUST be treated as case-sensitive, so `A@x.example` and `a@x.example` may be
    /// two mailboxes), the domain after the last `@` in ASCII lowercase (a domain is case-insensitive; an IDN is its
    /// A-label by then, and a letter beyond ASCII is left as written rather than taken for another).
    package var mailboxKey: String {
        guard let at = email.utf8.lastIndex(of: UInt8(ascii: "@")) else { return email }
        return String(email[..<at]) + ASCII.lowercased(String(email[at...]))
    }

    /// Parses an address-list header value (`To`, `Cc`, `From`, ...). Groups
    /// are flattened; malformed entries are interpreted as well as possible.
    package static func parseList(_ value: String) -> [MailAddress] {
        var warnings = WarningList()
        return AddressParser.parseList(value, warnings: &warnings)
    }
}
