/// A count with its noun in the right number for a terminal line: "1 message", "2 messages", "0 folders".
enum Counted {
    /// `n` and `singular`, or `singular` + "s" unless `n` is 1 (every noun the CLI counts takes an s).
    static func of<N: BinaryInteger>(_ n: N, _ singular: String) -> String {
        n == 1 ? "1 \(singular)" : "\(n) \(singular)s"
    }
}
