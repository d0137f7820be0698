import EventModel

/// The bounds every view keeps whatever a message or a server says: keys are bounded by `Key`; these bound
/// what values hold, so no single event can make a value (and every rewrite of it) grow without limit.
package enum ViewBounds {
    /// The most bytes of a text field (subject, display name, address, folder name) kept in a view value.
    package static let maxTextBytes = 2_048
    /// The most thread-linking ids taken from one message: its Message-ID, In-Reply-To, then its nearest
    /// References (the end of the list, where the parent is). Real mail stays far below it.
    package static let maxLinkKeys = 128
    /// The most flags (keywords) kept per email copy.
    package static let maxFlags = 64
    /// The longest address a contact is kept for: RFC 5321's limit (a path is at most 256 octets with its brackets),
    /// the longest the composer sends to. A longer text in an address field is no address mail can go to.
    package static let maxAddressBytes = 254
    /// The most copies of one Message-ID the dedup view lists (more are counted by the threads view
    /// still, but not listed).
    package static let maxCopiesListed = 1_000

    /// `text` cut to at most `maxBytes` UTF-8 bytes, at a character boundary.
    package static func text(_ text: String, maxBytes: Int = maxTextBytes) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var cut = maxBytes
        let bytes = Array(text.utf8)
        while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return String(decoding: bytes[0..<cut], as: UTF8.self)
    }

    /// The most bytes of an id (Message-ID, folder path) kept whole in a view value: RFC 5322's line limit.
    package static let maxIDBytes = 998

    /// `id` whole when it is at most `maxIDBytes` long, else its beginning and a hash of the whole (so
    /// two long ids stay distinct).
    package static func id(_ id: String) -> String {
        guard id.utf8.count > maxIDBytes else { return id }
        var bytes = Array(id.utf8)
        var h = bytes.withUnsafeBufferPointer { Key.fnv1a($0) }
        var out = Array(text(id, maxBytes: maxIDBytes - 17).utf8)
        out.append(Key.hashMarker)
        let hex = Array("0123456789abcdef".utf8)
        for _ in 0..<16 {
            out.append(hex[Int(h >> 60)])
            h <<= 4
        }
        bytes = out
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `address` with its name and address bounded.
    package static func address(_ address: EmailAddress) -> EmailAddress {
        EmailAddress(name: address.name.map { text($0) }, email: text(address.email))
    }

    /// At most `maxFlags` flags, the system flags (`\Seen`, `\Flagged`, ...) first so none of them is lost.
    package static func flags(_ flags: [String]) -> [String] {
        guard flags.count > maxFlags else { return flags.map { text($0, maxBytes: 256) } }
        let system = flags.filter { $0.hasPrefix("\\") }
        let keywords = flags.filter { !$0.hasPrefix("\\") }
        return (system + keywords).prefix(maxFlags).map { text($0, maxBytes: 256) }
    }

    /// The ids a message links its thread by: its own key, In-Reply-To, then the nearest References,
    /// without repeats or empties, at most `maxLinkKeys`.
    package static func linkKeys(messageKey: String, references: [String], inReplyTo: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        // Under the bound, the order threading has always used; over it, the nearest ancestors first.
        let candidates = references.count + inReplyTo.count < maxLinkKeys
            ? [messageKey] + references + inReplyTo
            : [messageKey] + inReplyTo.prefix(maxLinkKeys) + references.suffix(maxLinkKeys).reversed()
        for k in candidates where !k.isEmpty && out.count < maxLinkKeys && seen.insert(k).inserted {
            out.append(k)
        }
        return out
    }
}
