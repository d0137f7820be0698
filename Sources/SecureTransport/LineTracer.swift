/// Cuts a byte stream into lines for a protocol trace, each shortened to a readable length.
package struct LineTracer: Sendable {
    /// The longest line text passed on; the rest of a longer line is replaced by "…".
    package static let maxLineLength = 300

    /// Put before every line, e.g. `"S: "`.
    package let prefix: String
    /// The start of the line not yet ended.
    private var pending: [UInt8] = []
    /// Whether the pending line was longer than ``maxLineLength``.
    private var truncated = false

    /// A tracer that puts `prefix` before every line.
    package init(prefix: String) {
        self.prefix = prefix
    }

    /// The lines `bytes` complete, without their CRLF.
    package mutating func lines(in bytes: [UInt8]) -> [String] {
        var out: [String] = []
        for byte in bytes {
            if byte == 0x0A {
                if pending.last == 0x0D { pending.removeLast() }
                out.append(prefix + String(decoding: pending, as: UTF8.self) + (truncated ? "…" : ""))
                pending.removeAll(keepingCapacity: true)
                truncated = false
            } else if pending.count < LineTracer.maxLineLength {
                pending.append(byte)
            } else {
                truncated = true
            }
        }
        return out
    }
}
