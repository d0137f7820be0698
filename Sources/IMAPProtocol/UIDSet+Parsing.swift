extension UIDSet {
    /// The set written as `text` in sequence-set syntax (`1:5,7,9:*`).
    package init(parsing text: String) throws(UIDSetParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The set written as `bytes` in sequence-set syntax (`1:5,7,9:*`); offsets in errors
    /// count from the first byte.
    package init<C: Collection<UInt8>>(parsing bytes: C) throws(UIDSetParseError) where C.Index == Int {
        guard !bytes.isEmpty else { throw .empty }
        var parsed: [Range] = []
        var i = bytes.startIndex
        let end = bytes.endIndex
        let base = bytes.startIndex

        func bound() throws(UIDSetParseError) -> Bound {
            guard i < end else { throw .unexpectedEnd }
            if bytes[i] == IMAPByte.star {
                i += 1
                return .star
            }
            let start = i
            var value: UInt32 = 0
            while i < end, IMAPByte.isDigit(bytes[i]) {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt32(bytes[i] - IMAPByte.zero))
                if o1 || o2 { throw .overflow(at: start - base) }
                value = a
                i += 1
            }
            guard i > start else { throw .unexpectedByte(bytes[i], at: i - base) }
            guard value > 0 else { throw .zero(at: start - base) }
            return .uid(value)
        }

        while true {
            let a = try bound()
            if i < end, bytes[i] == IMAPByte.colon {
                i += 1
                let b = try bound()
                parsed.append(Range(a, b))
            } else {
                parsed.append(Range(a, a))
            }
            if i == end { break }
            guard bytes[i] == IMAPByte.comma else { throw .unexpectedByte(bytes[i], at: i - base) }
            i += 1
        }
        self.init(ranges: parsed)
    }
}
