import FuzzSupport
import SMTPClient

/// Fuzzes the SMTP reply parser (`SMTPReplyParser`) with bytes a server could send.
///
/// Invariants checked for every input:
/// - fed in random chunks (draining after each) it returns the same replies and the same error as fed whole;
/// - every reply has a code in 200...599, 1...maxLines lines, none longer than maxLineLength, no CR or LF;
/// - after a nil result at most maxLineLength (+1 for a held CR) bytes stay buffered;
/// - a reply written back in wire form (`250-a`, `250 b`) parses to the same reply.
enum SMTPReplyFuzz {
    /// Replies, then the error that ended the stream if any.
    struct Outcome: Equatable {
        var replies: [SMTPReply] = []
        var error: SMTPReplyParseError?
    }

    static func check(_ bytes: [UInt8]) {
        let whole = parse(bytes, chunks: [0..<bytes.count])
        let chunked = parse(bytes, chunks: FuzzCheck.chunkRanges(count: bytes.count, seed: FuzzCheck.seed(of: bytes)))
        FuzzCheck.require(same(whole, chunked), "whole \(whole) but chunked \(chunked)")
        for reply in whole.replies {
            FuzzCheck.require((200...599).contains(reply.code), "code \(reply.code)")
            FuzzCheck.require(!reply.lines.isEmpty && reply.lines.count <= SMTPReplyParser.maxLines, "\(reply.lines.count) lines")
            for line in reply.lines {
                FuzzCheck.require(line.utf8.count <= SMTPReplyParser.maxLineLength * 3, "line of \(line.utf8.count) bytes")
                FuzzCheck.require(!line.utf8.contains(0x0A), "line with LF")
            }
            _ = reply.description
            _ = reply.text
            var again = SMTPReplyParser()
            again.feed(wireForm(reply))
            let reread = try? again.next()
            FuzzCheck.require(reread == reply, "\(reply) written back reads as \(String(describing: reread))")
        }
    }

    /// Whole and chunked runs agree; a line too long may be noticed before its end arrives, so only
    /// the case is compared for that error.
    static func same(_ a: Outcome, _ b: Outcome) -> Bool {
        guard a.replies == b.replies else { return false }
        switch (a.error, b.error) {
        case (.lineTooLong?, .lineTooLong?): return true
        default: return a.error == b.error
        }
    }

    static func parse(_ bytes: [UInt8], chunks: [Range<Int>]) -> Outcome {
        var parser = SMTPReplyParser()
        var outcome = Outcome()
        do {
            for chunk in chunks {
                parser.feed(Array(bytes[chunk]))
                while let reply = try parser.next() { outcome.replies.append(reply) }
                FuzzCheck.require(parser.bufferedByteCount <= SMTPReplyParser.maxLineLength + 1,
                                  "\(parser.bufferedByteCount) bytes buffered after nil")
            }
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// The reply as a server would write it.
    static func wireForm(_ reply: SMTPReply) -> [UInt8] {
        var out: [UInt8] = []
        for (i, line) in reply.lines.enumerated() {
            out += Array("\(reply.code)\(i == reply.lines.count - 1 ? " " : "-")\(line)\r\n".utf8)
        }
        return out
    }
}
