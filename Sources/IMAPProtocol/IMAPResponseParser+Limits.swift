extension IMAPResponseParser {
    /// The bounds that keep a hostile or broken server from exhausting memory or stack.
    package struct Limits: Hashable, Sendable {
        /// The deepest nesting a parser accepts whatever it is configured with: nested lists
        /// are read recursively, and this keeps the recursion far from any thread's stack size.
        package static let nestingDepthCeiling = 256

        /// Largest literal accepted, in bytes (default 64 MiB).
        package let maxLiteralSize: Int
        /// Largest total of non-literal bytes (lines and their terminators) in one response
        /// (default 1 MiB).
        package let maxLineLength: Int
        /// Deepest nesting of parenthesised lists, the FETCH list itself counting as one
        /// (default 64, at most ``nestingDepthCeiling``).
        package let maxNestingDepth: Int
        /// Largest total size of one response, literals included (default 256 MiB).
        package let maxResponseSize: Int

        /// Limits with the given values; every default suits a mail client. Values are
        /// clamped to sane ranges (sizes at least 1 byte, literals may be limited to 0 bytes).
        package init(
            maxLiteralSize: Int = 64 << 20,
            maxLineLength: Int = 1 << 20,
            maxNestingDepth: Int = 64,
            maxResponseSize: Int = 256 << 20
        ) {
            self.maxLiteralSize = max(0, maxLiteralSize)
            self.maxLineLength = max(1, maxLineLength)
            self.maxNestingDepth = min(max(1, maxNestingDepth), Limits.nestingDepthCeiling)
            self.maxResponseSize = max(1, maxResponseSize)
        }
    }
}
