/// A cursor over the bytes of one complete, framed response.
///
/// The framer guarantees the response ends with a line feed and holds every literal it
/// announces; the reader still checks every bound so malformed input only ever produces
/// ``IMAPParseError/malformed(_:at:)``.
struct ResponseReader {
    /// The parser's buffer; only `start..<end` is read.
    let bytes: [UInt8]
    /// The next byte to read.
    var pos: Int
    /// One past the response's final line feed.
    let end: Int
    /// Stream offset of `bytes[0]`, for error positions.
    let streamOffset: Int
    /// The deepest nesting of parenthesised lists allowed.
    let maxDepth: Int

    init(bytes: [UInt8], start: Int, end: Int, streamOffset: Int, maxDepth: Int) {
        self.bytes = bytes
        self.pos = start
        self.end = end
        self.streamOffset = streamOffset
        self.maxDepth = maxDepth
    }

    /// A malformed-input error at the current position.
    func malformed(_ what: String) -> IMAPParseError { .malformed(what, at: streamOffset + pos) }

    /// The byte at the cursor, or nil at the end.
    @inline(__always) func peek() -> UInt8? { pos < end ? bytes[pos] : nil }

    /// The byte `offset` bytes after the cursor, or nil past the end.
    @inline(__always) func peek(at offset: Int) -> UInt8? { pos + offset < end ? bytes[pos + offset] : nil }

    /// Whether the cursor is at a line terminator or the end.
    var atLineEnd: Bool {
        guard let b = peek() else { return true }
        return b == IMAPByte.cr || b == IMAPByte.lf
    }

    /// Consumes `b` if it is next.
    @inline(__always) mutating func consume(_ b: UInt8) -> Bool {
        guard pos < end, bytes[pos] == b else { return false }
        pos += 1
        return true
    }

    /// Consumes `b`, or throws naming what was expected.
    mutating func expect(_ b: UInt8, _ what: String) throws(IMAPParseError) {
        guard consume(b) else { throw malformed("expected \(what)") }
    }

    /// Consumes one or more spaces (servers sometimes send two).
    mutating func expectSpace() throws(IMAPParseError) {
        guard consume(IMAPByte.space) else { throw malformed("expected a space") }
        skipSpaces()
    }

    /// Consumes any spaces.
    mutating func skipSpaces() {
        while pos < end, bytes[pos] == IMAPByte.space { pos += 1 }
    }

    /// Consumes the bytes matching `predicate` and returns their range.
    mutating func read(while predicate: (UInt8) -> Bool) -> Range<Int> {
        let from = pos
        while pos < end, predicate(bytes[pos]) { pos += 1 }
        return from..<pos
    }

    /// Reads a non-empty atom (ATOM-CHAR, 8-bit allowed).
    mutating func readAtom(_ what: String) throws(IMAPParseError) -> Range<Int> {
        let range = read(while: IMAPByte.isAtomChar)
        guard !range.isEmpty else { throw malformed("expected \(what)") }
        return range
    }

    /// Reads an atom and returns it ASCII-uppercased.
    mutating func readUpperAtom(_ what: String) throws(IMAPParseError) -> String {
        IMAPByte.upperString(bytes[try readAtom(what)])
    }

    /// Reads a decimal number that fits in `T`; overflow is malformed input.
    mutating func readNumber<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ what: String) throws(IMAPParseError) -> T {
        let from = pos
        var value: T = 0
        while pos < end, IMAPByte.isDigit(bytes[pos]) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(T(bytes[pos] - IMAPByte.zero))
            if o1 || o2 {
                pos = from
                throw malformed("\(what) does not fit in \(T.bitWidth) bits")
            }
            value = a
            pos += 1
        }
        guard pos > from else { throw malformed("expected \(what)") }
        return value
    }

    /// The bytes in `range` as a String (invalid UTF-8 replaced).
    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Reads the rest of the line as text (without the terminator).
    mutating func readText() -> String {
        string(read { $0 != IMAPByte.cr && $0 != IMAPByte.lf })
    }

    /// Consumes trailing spaces and the final line terminator; the response must end there.
    mutating func expectResponseEnd() throws(IMAPParseError) {
        skipSpaces()
        _ = consume(IMAPByte.cr)
        guard consume(IMAPByte.lf) else { throw malformed("expected end of line") }
        guard pos == end else { throw malformed("unexpected data after the end of the response") }
    }

    /// The index one past the last byte before the final line terminator.
    var contentEnd: Int {
        var e = end
        if e > pos, bytes[e - 1] == IMAPByte.lf { e -= 1 }
        if e > pos, bytes[e - 1] == IMAPByte.cr { e -= 1 }
        return e
    }
}
