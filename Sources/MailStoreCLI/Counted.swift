/// A count with its noun in the right number for a terminal line: "1 message", "2 messages", "0 folders".
enum Counted {
    /// `n` and `singular`, or `plural` (default: `singular` + "s") unless `n` is 1.
    static func of<N: BinaryInteger>(_ n: N, _ singular: String, _ plural: String? = nil) -> String {
        n == 1 ? "1 \(singular)" : "\(n) \(plural ?? singular + "s")"
    }
}
