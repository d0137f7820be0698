import XCTest
@testable import IMAPProtocol

/// The UTF-8 bytes of `text` with every `\n` turned into `\r\n`.
func crlf(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    for b in text.utf8 {
        if b == 0x0A { out.append(0x0D) }
        out.append(b)
    }
    return out
}

/// The UTF-8 bytes of `text`, unchanged.
func raw(_ text: String) -> [UInt8] { Array(text.utf8) }

/// `{n}\r\n` followed by `content`.
func literal(_ content: [UInt8], plus: Bool = false, binary: Bool = false) -> [UInt8] {
    raw("\(binary ? "~" : ""){\(content.count)\(plus ? "+" : "")}\r\n") + content
}

/// Parses `bytes` fed in chunks of `chunkSize` (all at once when nil), draining after every chunk.
func parseAll(_ bytes: [UInt8], chunkSize: Int? = nil, parser: IMAPResponseParser = IMAPResponseParser()) throws -> [IMAPResponse] {
    var parser = parser
    var out: [IMAPResponse] = []
    let size = max(1, chunkSize ?? max(bytes.count, 1))
    var i = 0
    while i < bytes.count {
        parser.feed(bytes[i..<min(i + size, bytes.count)])
        i += size
        while let r = try parser.next() { out.append(r) }
    }
    XCTAssertEqual(parser.bufferedByteCount, 0, "bytes left over after the last response")
    return out
}

/// Parses `bytes` whole, one byte at a time and in a few odd chunk sizes, asserting every
/// way gives the same responses, and returns them.
func parseEveryWay(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> [IMAPResponse] {
    let whole = try parseAll(bytes)
    for size in [1, 2, 3, 7, 64, 1000] {
        let chunked = try parseAll(bytes, chunkSize: size)
        XCTAssertEqual(chunked, whole, "chunk size \(size) changes the result", file: file, line: line)
    }
    return whole
}

/// The single response `bytes` hold.
func parseOne(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> IMAPResponse {
    let all = try parseEveryWay(crlf(text), file: file, line: line)
    XCTAssertEqual(all.count, 1, "expected exactly one response", file: file, line: line)
    return try XCTUnwrap(all.first, file: file, line: line)
}

/// The untagged response `text` holds.
func parseUntagged(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> UntaggedResponse {
    let response = try parseOne(text, file: file, line: line)
    guard case .untagged(let u) = response else {
        XCTFail("not untagged: \(response)", file: file, line: line)
        throw IMAPParseError.malformed("test expected an untagged response", at: 0)
    }
    return u
}

/// The error parsing `bytes` throws, or nil when it parses.
func parseError(_ bytes: [UInt8], parser: IMAPResponseParser = IMAPResponseParser(), chunkSize: Int? = nil) -> IMAPParseError? {
    do {
        _ = try parseAll(bytes, chunkSize: chunkSize, parser: parser)
        return nil
    } catch let error as IMAPParseError {
        return error
    } catch {
        XCTFail("unexpected error type \(error)")
        return nil
    }
}

/// The fetch attributes of an untagged FETCH response.
func fetchAttributes(_ response: IMAPResponse?, file: StaticString = #filePath, line: UInt = #line) -> (UInt32, [FetchAttribute]) {
    guard case .untagged(.fetch(let seq, let attributes))? = response else {
        XCTFail("not a FETCH response: \(String(describing: response))", file: file, line: line)
        return (0, [])
    }
    return (seq, attributes)
}

/// A deterministic pseudo-random generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A message of about `size` bytes whose body is full of CRLFs and text that looks like IMAP.
func trickyMessage(subject: String, size: Int) -> [UInt8] {
    var m = crlf("""
    Return-Path: <alice@example.org>
    From: Alice <alice@example.org>
    To: Bob <bob@example.net>
    Subject: \(subject)
    Date: Wed, 17 Jul 2024 02:44:25 +0200
    Message-ID: <\(subject.count).\(size)@example.org>
    MIME-Version: 1.0
    Content-Type: text/plain; charset=utf-8

    """)
    let decoys = [
        "* 5 EXISTS",
        "a7 OK [READ-WRITE] Fetch completed.",
        "* 9 FETCH (UID 99 BODY[] {12}",
        "+ go ahead",
        ") \"quoted \\\" string\" (((nested))) NIL {0}",
        "* BYE not really",
        "~{8}",
        "Grüße aus Köln — ünïcödé ✓",
    ]
    var i = 0
    while m.count < size {
        m += crlf(decoys[i % decoys.count] + "\n")
        i += 1
    }
    return m
}
