extension String {
    /// The string without leading and trailing ASCII whitespace.
    func trimmingASCIIWhitespace() -> String {
        let u = utf8
        var lo = u.startIndex
        var hi = u.endIndex
        while lo < hi, ASCII.isWhitespace(u[lo]) { lo = u.index(after: lo) }
        while hi > lo {
            let prev = u.index(before: hi)
            if !ASCII.isWhitespace(u[prev]) { break }
            hi = prev
        }
        if lo == u.startIndex && hi == u.endIndex { return self }
        return String(decoding: u[lo..<hi], as: UTF8.self)
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes (no copy for native strings).
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(utf8).withUnsafeBufferPointer(body)
    }

    /// Whether the string is all ASCII.
    var isASCIIOnly: Bool {
        withBytes { ByteScan.isASCII($0, from: 0, to: $0.count) }
    }

    /// Whether the string's UTF-8 contains `byte`.
    func containsByte(_ byte: UInt8) -> Bool {
        withBytes { ByteScan.find(byte, in: $0, from: 0, to: $0.count) != nil }
    }
}
