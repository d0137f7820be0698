/// Checks of the addresses that go into `MAIL FROM:<...>` and `RCPT TO:<...>`.
enum SMTPAddress {
    /// The longest address accepted (RFC 5321 §4.5.3.1.3: a path is at most 256 octets).
    static let maxLength = 254

    /// Throws ``SMTPClientError/invalidAddress(_:reason:)`` unless `address` can be sent as a path:
    /// `local@domain`, no control characters, spaces or angle brackets outside a quoted local
    /// part. An empty address is allowed only as a sender (`MAIL FROM:<>`, for bounces).
    static func validate(_ address: String, isSender: Bool) throws(SMTPClientError) {
        if address.isEmpty {
            guard isSender else { throw .invalidAddress(address, reason: "the address is empty") }
            return
        }
        guard address.utf8.count <= maxLength else {
            throw .invalidAddress(address, reason: "it is longer than \(maxLength) bytes")
        }
        guard !address.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidAddress(address, reason: "it holds a control character")
        }
        guard let at = address.lastIndex(of: "@") else { throw .invalidAddress(address, reason: "it has no @") }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty else {
            throw .invalidAddress(address, reason: "the part before or after the @ is empty")
        }
        let quoted = local.count >= 2 && local.hasPrefix("\"") && local.hasSuffix("\"")
        let forbidden: Set<Character> = [" ", "<", ">", "\\", "\"", ",", ";", ":", "(", ")", "[", "]", "@"]
        if !quoted, local.contains(where: forbidden.contains) {
            throw .invalidAddress(address, reason: "the local part needs quoting")
        }
        if domain.contains(where: { forbidden.contains($0) && !(domain.hasPrefix("[") && domain.hasSuffix("]")) }) {
            throw .invalidAddress(address, reason: "the domain is not a host name or an address literal")
        }
    }
}
