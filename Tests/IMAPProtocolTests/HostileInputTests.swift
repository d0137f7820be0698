import XCTest
@testable import IMAPProtocol

/// Random and mutated input must only ever produce responses or typed errors.
final class HostileInputTests: XCTestCase {
    /// Feeds `bytes` in random chunks; returns how many responses came out before any error.
    @discardableResult
    private func survive(_ bytes: [UInt8], rng: inout SeededGenerator, limits: IMAPResponseParser.Limits = .init()) -> Int {
        var parser = IMAPResponseParser(limits: limits)
        var i = 0
        var count = 0
        while i < bytes.count {
            let n = Int.random(in: 1...64, using: &rng)
            parser.feed(bytes[i..<min(i + n, bytes.count)])
            i += n
            do {
                while try parser.next() != nil { count += 1 }
            } catch {
                XCTAssertTrue(parser.isBroken)
                return count
            }
        }
        return count
    }

    func testRandomBytes() {
        var rng = SeededGenerator(seed: 0x1A4)
        for round in 0..<500 {
            let size = Int.random(in: 0...(round < 100 ? 64 : 4000), using: &rng)
            var data = [UInt8](repeating: 0, count: size)
            for j in 0..<size { data[j] = UInt8.random(in: 0...255, using: &rng) }
            survive(data, rng: &rng)
        }
    }

    func testRandomIMAPAlphabet() {
        let alphabet = raw("* aOKNILFETCHBODY[]<>(){}~+0123456789 \"\\\r\n:,.")
        var rng = SeededGenerator(seed: 77)
        for _ in 0..<2000 {
            let size = Int.random(in: 0...300, using: &rng)
            let data = (0..<size).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            survive(data, rng: &rng, limits: .init(maxLiteralSize: 64, maxLineLength: 256, maxNestingDepth: 8))
        }
    }

    func testMutatedTranscripts() {
        var rng = SeededGenerator(seed: 42)
        let sources = [DovecotTranscriptTests.transcript, GmailTranscriptTests.transcript]
        let specials = raw("()[]{}<>\"\\*+~ \r\n0:,NIL")
        for round in 0..<300 {
            var data = sources[round % 2]
            for _ in 0..<Int.random(in: 1...10, using: &rng) {
                let pos = Int.random(in: 0..<data.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: data[pos] = specials[Int.random(in: 0..<specials.count, using: &rng)]
                case 1: data.remove(at: pos)
                case 2: data.insert(specials[Int.random(in: 0..<specials.count, using: &rng)], at: pos)
                default: data[pos] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            survive(data, rng: &rng)
        }
    }

    func testTruncatedTranscriptsWaitForMoreBytes() throws {
        let full = GmailTranscriptTests.transcript
        let all = try parseAll(full)
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<50 {
            let cut = Int.random(in: 0..<full.count, using: &rng)
            var parser = IMAPResponseParser()
            parser.feed(full[0..<cut])
            var got: [IMAPResponse] = []
            while let r = try parser.next() { got.append(r) }
            XCTAssertEqual(got, Array(all.prefix(got.count)))
            XCTAssertLessThan(got.count, all.count)
        }
    }
}
