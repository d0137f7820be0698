/// Builds the bytes of one command, split where a synchronizing literal makes the client
/// wait for the server's `+` continuation.
struct CommandWriter {
    /// Strings longer than this go out as literals even when they could be quoted.
    static let maxQuotedLength = 1024

    /// The literal policy in force.
    let literalMode: LiteralMode
    /// Finished parts, each ending with a synchronizing literal announcement.
    private var parts: [[UInt8]] = []
    /// The part being written.
    private var current: [UInt8] = []

    init(literalMode: LiteralMode) {
        self.literalMode = literalMode
    }

    /// Appends ASCII text verbatim.
    mutating func raw(_ text: String) { current.append(contentsOf: text.utf8) }

    /// Appends bytes verbatim.
    mutating func raw(_ bytes: [UInt8]) { current.append(contentsOf: bytes) }

    /// Appends a space.
    mutating func space() { current.append(IMAPByte.space) }

    /// Appends a string as a quoted string when it is short 7-bit text without CR, LF or NUL,
    /// else as a literal.
    mutating func string(_ bytes: [UInt8]) {
        if CommandWriter.canQuote(bytes) {
            current.append(IMAPByte.quote)
            for b in bytes {
                if b == IMAPByte.quote || b == IMAPByte.backslash { current.append(IMAPByte.backslash) }
                current.append(b)
            }
            current.append(IMAPByte.quote)
        } else {
            literal(bytes)
        }
    }

    /// Appends a string given as text (see ``string(_:)-([UInt8])``).
    mutating func string(_ text: String) { string(Array(text.utf8)) }

    /// Appends an astring: a bare atom when `bytes` is a non-empty strict atom, else a string.
    mutating func astring(_ bytes: [UInt8]) {
        if !bytes.isEmpty, bytes.allSatisfy(IMAPByte.isStrictAtomChar) {
            current.append(contentsOf: bytes)
        } else {
            string(bytes)
        }
    }

    /// Appends a mailbox name (its wire bytes as a string).
    mutating func mailbox(_ name: MailboxName) { string(name.raw) }

    /// Appends a literal (`~{n}`, a literal8 of RFC 4466, when `eightBit`), ending the current part when it is
    /// synchronizing.
    mutating func literal(_ bytes: [UInt8], eightBit: Bool = false) {
        let nonSync = literalMode.isNonSynchronizing(size: bytes.count)
        current.append(contentsOf: "\(eightBit ? "~" : ""){\(bytes.count)\(nonSync ? "+" : "")}\r\n".utf8)
        if !nonSync {
            parts.append(current)
            current = []
        }
        current.append(contentsOf: bytes)
    }

    /// Ends the command with CRLF and returns its parts.
    mutating func finish() -> [[UInt8]] {
        current.append(contentsOf: IMAPByte.crlf)
        parts.append(current)
        current = []
        return parts
    }

    /// Whether `bytes` can be sent as a quoted string.
    static func canQuote(_ bytes: [UInt8]) -> Bool {
        bytes.count <= maxQuotedLength && bytes.allSatisfy { $0 > 0 && $0 < 0x80 && $0 != IMAPByte.cr && $0 != IMAPByte.lf }
    }
}
