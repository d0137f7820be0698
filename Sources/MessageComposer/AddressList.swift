import MailParser

/// The result of reading an address field typed by a person: the usable addresses and the
/// entries that are not.
package struct AddressList: Sendable, Hashable {
    /// The valid addresses, in order.
    package var addresses: [MailAddress]
    /// The entries that are not valid addresses, in order.
    package var invalid: [InvalidAddress]

    /// A list with the given parts.
    package init(addresses: [MailAddress], invalid: [InvalidAddress]) {
        self.addresses = addresses
        self.invalid = invalid
    }

    /// Reads `text` ("Name <a@b.c>, other@x.y", groups flattened) given for `field`; every entry
    /// that is malformed or whose address is not `local@domain` goes to ``invalid``.
    package init(parsing text: String, field: AddressField) {
        var addresses: [MailAddress] = []
        var invalid: [InvalidAddress] = []
        for address in MailAddress.parseList(text) {
            let entry = address.raw ?? address.name.map { "\($0) <\(address.email)>" } ?? address.email
            if address.raw != nil, address.email.isEmpty || !address.email.contains("@") {
                invalid.append(InvalidAddress(field: field, entry: entry, reason: "no address (local@domain) in it"))
            } else if address.raw != nil {
                invalid.append(InvalidAddress(field: field, entry: entry, reason: "it is malformed (quote a name with commas or brackets)"))
            } else if let reason = AddressList.problem(with: address.email) {
                invalid.append(InvalidAddress(field: field, entry: entry, reason: reason))
            } else {
                addresses.append(address)
            }
        }
        self.init(addresses: addresses, invalid: invalid)
    }

    /// What makes `email` unusable as an address (`local@domain`), or nil when it is fine.
    ///
    /// Every check reads Unicode scalars, not characters: a combining mark after a quote, an `@` or a dot makes one
    /// grapheme of them, and a check by character would not see the quote, the `@` or the dot a reader sees.
    package static func problem(with email: String) -> String? {
        // The @, the empty parts and the length are found on the bytes, so a huge text is refused before its scalars are
        // collected (an @ is one byte in UTF-8 and never part of another character's bytes).
        let bytes = email.utf8
        guard let atByte = bytes.lastIndex(of: UInt8(ascii: "@")) else { return "it has no @" }
        if atByte == bytes.startIndex { return "the part before the @ is empty" }
        if bytes.index(after: atByte) == bytes.endIndex { return "the domain is empty" }
        // RFC 5321 section 4.5.3.1: a path (the address in brackets) is at most 256 octets, a local part at most 64; a
        // longer address cannot be sent, nor written on one header line.
        if bytes.count > 254 { return "it is longer than 254 bytes" }
        let scalars = Array(email.unicodeScalars)
        guard let at = scalars.lastIndex(of: "@") else { return "it has no @" }
        let local = scalars[..<at]
        let domain = scalars[(at + 1)...]
        if String(String.UnicodeScalarView(local)).utf8.count > 64 { return "the part before the @ is longer than 64 bytes" }
        if scalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "it holds a space or a control character"
        }
        let quoted = local.count >= 2 && local.first == "\"" && local.last == "\""
        if quoted {
            // A quoted string (RFC 5322 section 3.2.4): inside, a quote or a backslash only after a backslash.
            var escaped = false
            for c in local.dropFirst().dropLast() {
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    return "the part before the @ has a quote that is not escaped"
                }
            }
            if escaped { return "the part before the @ ends its quotes with a lone backslash" }
        } else {
            let special = Set("<>()[]\\,;:@\"".unicodeScalars)
            if local.contains(where: special.contains) { return "the part before the @ holds a character that needs quoting" }
            if local.first == "." || local.last == "." || zip(local, local.dropFirst()).contains(where: { $0 == "." && $1 == "." }) {
                return "the part before the @ has a misplaced dot"
            }
        }
        if domain.first == "[", domain.last == "]" { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            if label.isEmpty { return "the domain has an empty label (a misplaced dot)" }
            if label.first == "-" || label.last == "-" { return "a domain label starts or ends with a hyphen" }
            if !label.allSatisfy({ !$0.isASCII || $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" }) {
                return "the domain holds a character a host name cannot have"
            }
        }
        return nil
    }
}
