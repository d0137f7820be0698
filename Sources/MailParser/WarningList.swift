/// Collects warnings during a parse, bounded so hostile input cannot make
/// the list grow without limit.
struct WarningList: Sendable {
    /// The most warnings kept for one message.
    static let limit = 64

    private(set) var items: [ParseWarning] = []
    private var overflowed = false

    /// Records a warning unless the limit has been reached.
    mutating func add(_ code: ParseWarning.Code, _ detail: String) {
        if items.count < WarningList.limit {
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

    /// Whether a warning with this code has already been recorded.
    func contains(_ code: ParseWarning.Code) -> Bool {
        items.contains { $0.code == code }
    }
}
