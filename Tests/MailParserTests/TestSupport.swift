import Foundation
import XCTest
@testable import MailParser

/// Message bytes from a Swift string literal; LF line endings are turned
/// into CRLF unless `crlf` is false.
func bytes(_ s: String, crlf: Bool = true) -> [UInt8] {
    let lf = Array(s.utf8)
    guard crlf else { return lf }
    var out = [UInt8]()
    out.reserveCapacity(lf.count + lf.count / 20)
    for b in lf {
        if b == 0x0A { out.append(0x0D) }
        out.append(b)
    }
    return out
}

/// Parses a message given as a string literal.
func parse(_ s: String, crlf: Bool = true, fallbackDate: Date? = nil) -> ParsedMessage {
    MailParser.parse(bytes(s, crlf: crlf), fallbackDate: fallbackDate)
}

/// A UTC date.
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, offsetMinutes: Int = 0) -> Date {
    let e = MailDate.epochSeconds(year: y, month: mo, day: d, hour: h, minute: mi, second: s) - Int64(offsetMinutes * 60)
    return Date(timeIntervalSince1970: TimeInterval(e))
}

/// Whether the message has a warning with this code.
func hasWarning(_ m: ParsedMessage, _ code: ParseWarning.Code) -> Bool {
    m.warnings.contains { $0.code == code }
}

/// A deterministic pseudo-random generator (SplitMix64) for hostile input.
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
