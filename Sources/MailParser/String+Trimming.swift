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
