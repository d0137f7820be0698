import FuzzSupport
import IMAPProtocol

/// Fuzzes the IMAP response parser (`IMAPResponseParser`) with bytes a server could send.
///
/// Small limits (4 KiB literals and lines, nesting 16, 8 KiB responses) put every bound within the
/// fuzzer's reach. Invariants checked for every input:
/// - fed in random chunks (draining after each) it returns the same responses and the same error as fed whole;
/// - while it waits for more bytes it buffers no more than one response can hold (the limits);
/// - after an error the stream stays broken: every later call throws the same error.
enum IMAPFuzz {
    static let limits = IMAPResponseParser.Limits(maxLiteralSize: 4096, maxLineLength: 4096,
                                                  maxNestingDepth: 16, maxResponseSize: 8192)

    /// Responses, then the error that broke the stream if any.
    struct Outcome: Equatable {
        var responses: [IMAPResponse] = []
        var error: IMAPParseError?
    }

    static func check(_ bytes: [UInt8]) {
        let whole = parse(bytes, chunks: [0..<bytes.count])
        let chunked = parse(bytes, chunks: FuzzCheck.chunkRanges(count: bytes.count, seed: FuzzCheck.seed(of: bytes)))
        FuzzCheck.require(whole == chunked, "whole \(whole) but chunked \(chunked)")
    }

    static func parse(_ bytes: [UInt8], chunks: [Range<Int>]) -> Outcome {
        var parser = IMAPResponseParser(limits: limits)
        var outcome = Outcome()
        do {
            for chunk in chunks {
                parser.feed(bytes[chunk])
                while let response = try parser.next() { outcome.responses.append(response) }
                // A pending response: its lines, one literal, and the start of the next line.
                let bound = limits.maxResponseSize + limits.maxLineLength
                FuzzCheck.require(parser.bufferedByteCount <= bound,
                                  "\(parser.bufferedByteCount) bytes buffered, more than \(bound)")
            }
        } catch {
            outcome.error = error
            FuzzCheck.require(parser.isBroken, "not broken after \(error)")
            parser.feed([0x2A, 0x20, 0x4F, 0x4B, 0x0D, 0x0A])  // "* OK\r\n" is ignored now
            do {
                _ = try parser.next()
                FuzzCheck.fail("no error after \(error)")
            } catch let again {
                FuzzCheck.require(again == error, "\(again) after \(error)")
            }
        }
        return outcome
    }
}
