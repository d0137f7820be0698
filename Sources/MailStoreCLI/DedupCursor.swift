import MailStore

/// The `--cursor` of `project --view dedup`: the hex of a row's key in the dedup view (the account and the
/// Message-ID, as the view orders them).
enum DedupCursor {
    /// The longest key a cursor carries, in bytes: an account name and a Message-ID, each bounded.
    static let maxKeyBytes = 4_096

    /// The cursor of `key`.
    static func text(_ key: [UInt8]) -> String { HexText.encode(key) }

    /// The key of a cursor, or nil when it is not one.
    static func key(_ text: String) -> [UInt8]? {
        guard let key = HexText.decode(text, maxBytes: maxKeyBytes), MailStore.dedupAccount(ofKey: key) != nil else { return nil }
        return key
    }

    /// The account a cursor's key belongs to.
    static func account(of key: [UInt8]) -> String? { MailStore.dedupAccount(ofKey: key) }
}
