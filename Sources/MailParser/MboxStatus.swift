/// Flags from the `Status:` and `X-Status:` headers written by mbox mail
/// readers (mutt, Thunderbird, Pine...).
package enum MboxStatus {
    /// IMAP flags: `Status` R -> `\Seen` (O, "old", only means not new);
    /// `X-Status` A -> `\Answered`, F -> `\Flagged`, T -> `\Draft`,
    /// D -> `\Deleted`.
    package static func flags(status: String?, xStatus: String?) -> [String] {
        var result: [String] = []
        func add(_ f: String) { if !result.contains(f) { result.append(f) } }
        for ch in status ?? "" where ch == "R" { add("\\Seen") }
        for ch in xStatus ?? "" {
            switch ch {
            case "A": add("\\Answered")
            case "F": add("\\Flagged")
            case "T": add("\\Draft")
            case "D": add("\\Deleted")
            default: break
            }
        }
        return result
    }

    /// Whether the message is new (`\Recent`): no `O` or `R` in `Status`.
    package static func isNew(status: String?) -> Bool {
        guard let status else { return true }
        return !status.contains("O") && !status.contains("R")
    }
}
