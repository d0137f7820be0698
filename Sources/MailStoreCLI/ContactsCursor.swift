/// The `--cursor` of `project --view contacts`: the rank of a page's last contact, `cCOUNT.HEX`, its message
/// count and the hex of its address (contacts are listed by count, then address). The `c` keeps it apart from the
/// thread list's `µs.ID`, which a `COUNT.HEX` also was: another view's cursor had paged on, exit 0.
struct ContactsCursor {
    /// The last contact's message count.
    var count: UInt64
    /// The last contact's address.
    var address: String

    /// The longest address a cursor carries, in bytes (an address is at most a line of mail).
    static let maxAddressBytes = 4_096

    init(count: UInt64, address: String) {
        self.count = count
        self.address = address
    }

    /// Parses `cCOUNT.HEX`; nil when `text` is not one.
    init?(_ text: String) {
        guard text.first == "c" else { return nil }
        let parts = text.dropFirst().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let count = UInt64(parts[0]),
              let bytes = HexText.decode(parts[1], maxBytes: Self.maxAddressBytes),
              let address = String(validating: bytes, as: UTF8.self) else { return nil }
        self.count = count
        self.address = address
    }

    /// The cursor as text.
    var text: String { "c\(count)." + HexText.encode(Array(address.utf8)) }
}
