/// A count with its noun in the right number for a terminal line: "1 message", "2 messages", "0 folders".
enum Counted {
    /// `n` and `singular` when `n` is 1, else `n` and `plural` (by default `singular` + "s").
    static func of<N: BinaryInteger>(_ n: N, _ singular: String, plural: String? = nil) -> String {
        n == 1 ? "1 \(singular)" : "\(n) \(plural ?? singular + "s")"
    }
}
