/// The service extensions an SMTP server announced in its `EHLO` reply (RFC 5321 §4.1.1.1).
package struct SMTPExtensions: Sendable, Hashable {
    /// Each keyword (uppercased) with its parameters as written, e.g. `"SIZE": ["35882577"]`.
    package var keywords: [String: [String]]

    /// No extensions (before `EHLO`).
    package init() {
        keywords = [:]
    }

    /// The extensions of an `EHLO` reply: every line after the first (the server's name) is
    /// `KEYWORD [PARAM ...]`. The old `AUTH=MECH ...` form counts as `AUTH MECH ...`.
    package init(ehlo reply: SMTPReply) {
        var keywords: [String: [String]] = [:]
        for line in reply.lines.dropFirst() {
            var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !words.isEmpty else { continue }
            var keyword = words.removeFirst().uppercased()
            if keyword.hasPrefix("AUTH=") {
                words.insert(String(keyword.dropFirst(5)), at: 0)
                keyword = "AUTH"
            }
            keywords[keyword, default: []].append(contentsOf: words)
        }
        self.keywords = keywords
    }

    /// Whether the server announced `keyword` (ASCII case-insensitive), e.g. `"PIPELINING"`.
    package func has(_ keyword: String) -> Bool { keywords[keyword.uppercased()] != nil }

    /// The SASL mechanisms of `AUTH`, uppercased.
    package var authMechanisms: Set<String> { Set((keywords["AUTH"] ?? []).map { $0.uppercased() }) }
    /// The largest message the server accepts, in bytes (`SIZE n`); nil when not announced or unlimited (0).
    package var maxMessageSize: Int? { keywords["SIZE"]?.first.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }
    /// `STARTTLS` (RFC 3207).
    package var startTLS: Bool { has("STARTTLS") }
    /// `8BITMIME` (RFC 6152): message bodies may hold 8-bit bytes when sent with `BODY=8BITMIME`.
    package var eightBitMIME: Bool { has("8BITMIME") }
    /// `SMTPUTF8` (RFC 6531): addresses and headers may be UTF-8.
    package var smtpUTF8: Bool { has("SMTPUTF8") }
    /// `PIPELINING` (RFC 2920).
    package var pipelining: Bool { has("PIPELINING") }
    /// `ENHANCEDSTATUSCODES` (RFC 2034).
    package var enhancedStatusCodes: Bool { has("ENHANCEDSTATUSCODES") }
}
