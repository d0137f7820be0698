import FuzzSupport
import MailParser

/// Fuzzes the mbox splitter (`MboxSplitter`) with file bytes.
///
/// Invariants checked for every input (of n bytes):
/// - fed in random chunks it cuts the same messages (bytes, envelope sender and date) as fed whole;
/// - the splitter only removes bytes (From_ lines, one `>` of quoted From lines, separating blank lines):
///   the messages together hold at most n bytes;
/// - the messages written back as an mboxrd file (a From_ line each, `>` added to every `>*From ` line
///   whose quoted form the splitter unquotes, that is whose `From ` ends within its first 4,098 bytes,
///   a blank line after each message that ends with a line feed) split into the same message bytes.
enum MboxFuzz {
    static func check(_ bytes: [UInt8]) {
        let whole = split(bytes, chunks: [0..<bytes.count])
        let chunked = split(bytes, chunks: FuzzCheck.chunkRanges(count: bytes.count, seed: FuzzCheck.seed(of: bytes)))
        FuzzCheck.require(whole == chunked, "whole \(whole.map(\.bytes)) but chunked \(chunked.map(\.bytes))")
        let total = whole.reduce(0) { $0 + $1.bytes.count }
        FuzzCheck.require(total <= bytes.count, "messages of \(total) bytes from \(bytes.count)")
        let rewritten = mboxrd(whole.map(\.bytes))
        let again = split(rewritten, chunks: [0..<rewritten.count])
        FuzzCheck.require(again.map(\.bytes) == whole.map(\.bytes),
                          "\(whole.map(\.bytes)) written back as \(rewritten) splits into \(again.map(\.bytes))")
    }

    static func split(_ bytes: [UInt8], chunks: [Range<Int>]) -> [MboxMessage] {
        var splitter = MboxSplitter()
        var messages: [MboxMessage] = []
        for chunk in chunks { messages += splitter.feed(Array(bytes[chunk])) }
        return messages + splitter.finish()
    }

    static let fromLine = Array("From fuzz@example.org Thu Jan  1 00:00:00 1970\n".utf8)

    /// The messages as an mboxrd file.
    static func mboxrd(_ messages: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for message in messages {
            out += fromLine
            var lineStart = true
            var i = 0
            while i < message.count {
                if lineStart {
                    var k = i
                    while k < message.count, message[k] == 0x3E { k += 1 }
                    // The splitter unquotes a line whose `From ` ends within its first 4,098 bytes.
                    if k - i <= 4_092, message[k...].starts(with: "From ".utf8) { out.append(0x3E) }
                }
                out.append(message[i])
                lineStart = message[i] == 0x0A
                i += 1
            }
            // The blank line after each message; a last line without its LF (the file's end) gets none.
            if message.last == nil || message.last == 0x0A { out.append(0x0A) }
        }
        return out
    }
}
