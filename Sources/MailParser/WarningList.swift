/// Collects warnings during a parse, bounded so hostile input cannot make
/// the list grow without limit.
struct WarningList: Sendable {
    /// The most warnings kept for one message.
    static let limit = 64

    private(set) var items: [ParseWarning] = []
    private var overflowed = false

    /// Records a warning unless the limit has been reached, or the same one (code and detail) is recorded already: a
    /// malformed value repeated (the same text in From and Reply-To, as list archives write both) tells no more twice,
    /// and each copy was stored in the message's event (~90 bytes).
    mutating func add(_ code: ParseWarning.Code, _ detail: String) {
        if items.count < WarningList.limit {
            // At most `limit` compared, and only while the list is not full.
            if items.contains(where: { $0.code == code && $0.detail == detail }) { return }
            items.append(ParseWarning(code: code, detail: detail))
        } else if !overflowed {
            overflowed = true
            items.append(ParseWarning(code: .tooManyWarnings, detail: "further warnings dropped"))
        }
    }

    /// Records an already built warning.
    mutating func add(_ warning: ParseWarning?) {
        if let warning { add(warning.code, warning.detail) }
    }

    /// Records the warnings of `other`, in order, as `add` would one by one.
    mutating func add(contentsOf other: WarningList) {
        for w in other.items { add(w) }
    }

    /// Whether a warning with this code has already been recorded.
    func contains(_ code: ParseWarning.Code) -> Bool {
        items.contains { $0.code == code }
    }
}
