/// Reads SMTP replies (RFC 5321 §4.2) from the bytes received: `250-first`, `250-more`, `250 last`.
///
/// Lines end with CRLF (a bare LF is tolerated). Bounded: a line longer than ``maxLineLength``, a reply of
/// more than ``maxLines`` lines or of more than ``maxReplyBytes`` is an error, so a hostile server cannot
/// exhaust memory (a send holds a reply per refused recipient, up to a thousand).
package struct SMTPReplyParser {
    /// The longest line accepted (RFC 5321 allows 512 octets; servers write longer texts).
    package static let maxLineLength = 8192
    /// The most lines one reply may have.
    package static let maxLines = 1000
    /// The most bytes of text one reply may have, its lines together (RFC 5321's replies are lines of at most
    /// 512 octets; an EHLO reply is a few dozen short lines).
    package static let maxReplyBytes = 64 * 1024

    /// Received bytes not yet read as a reply.
    private var buffer: [UInt8] = []
    /// Where the next unread line starts in `buffer`.
    private var start = 0
    /// How far `buffer` is known to hold no line end after `start`: a line arriving in many small pieces is
    /// searched once, not from its beginning after every piece.
    private var searched = 0
    /// The lines of the reply being read.
    private var pending: [String] = []
    /// The code of the reply being read.
    private var pendingCode: Int?
    /// The bytes of the lines of the reply being read.
    private var pendingBytes = 0

    /// An empty parser.
    package init() {}

    /// The bytes received but not yet read as a complete reply.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    package mutating func feed(_ bytes: [UInt8]) {
        // Read bytes are dropped once they are at least as many as the unread ones: each byte moves O(1) times
        // on average, however small the pieces.
        if start > 0, start >= buffer.count - start {
            buffer.removeFirst(start)
            searched -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete reply, or nil when more bytes are needed.
    package mutating func next() throws(SMTPReplyParseError) -> SMTPReply? {
        while let end = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
            var line = buffer[start..<end]
            if line.last == 0x0D { line = line.dropLast() }
            start = end + 1
            searched = start
            guard line.count <= SMTPReplyParser.maxLineLength else { throw .lineTooLong(line.count) }
            if let reply = try take(line) { return reply }
        }
        searched = buffer.count
        // An incomplete line may end with the CR of its CRLF, which is not part of the line.
        let pendingLength = bufferedByteCount - (bufferedByteCount > 0 && buffer.last == 0x0D ? 1 : 0)
        guard pendingLength <= SMTPReplyParser.maxLineLength else { throw .lineTooLong(pendingLength) }
        return nil
    }

    /// Adds one line to the reply being read; returns the reply when the line ends it.
    private mutating func take(_ line: ArraySlice<UInt8>) throws(SMTPReplyParseError) -> SMTPReply? {
        let text = String(decoding: line, as: UTF8.self)
        let digits = line.prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              let code = Int(String(decoding: digits, as: UTF8.self)), (200...599).contains(code)
        else { throw .malformedLine(text) }
        let separator = line.dropFirst(3).first
        guard separator == nil || separator == 0x20 || separator == 0x2D else { throw .malformedLine(text) }
        if let pendingCode, pendingCode != code { throw .inconsistentCodes(pendingCode, code) }
        pendingBytes += line.count
        guard pendingBytes <= SMTPReplyParser.maxReplyBytes else { throw .replyTooLong }
        pending.append(String(decoding: line.dropFirst(4), as: UTF8.self))
        guard pending.count <= SMTPReplyParser.maxLines else { throw .tooManyLines }
        if separator == 0x2D {
            pendingCode = code
            return nil
        }
        defer {
            pending = []
            pendingCode = nil
            pendingBytes = 0
        }
        return SMTPReply(code: code, lines: pending)
    }
}
