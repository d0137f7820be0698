import Foundation

/// Buffered stdout for commands that print many lines. Its writes go after whatever `print` left in stdio's buffer
/// (every stdio stream flushed first), so a command may mix the two and keep its order.
struct OutputBuffer {
    private var buffer = Data()

    mutating func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(_ d: Data) {
        buffer.append(d)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStream.out(buffer)  // after flushing every stdio stream
        buffer.removeAll(keepingCapacity: true)
    }
}
