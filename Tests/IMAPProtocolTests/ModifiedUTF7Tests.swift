import XCTest
@testable import IMAPProtocol

final class ModifiedUTF7Tests: XCTestCase {
    private let pairs: [(String, String)] = [
        ("INBOX", "INBOX"),
        ("Entwürfe", "Entw&APw-rfe"),
        ("&", "&-"),
        ("Tom & Jerry", "Tom &- Jerry"),
        ("日本語", "&ZeVnLIqe-"),
        ("~peter/mail/台北/日本語", "~peter/mail/&U,BTFw-/&ZeVnLIqe-"),
        ("Corbeille/Éléments supprimés", "Corbeille/&AMk-l&AOk-ments supprim&AOk-s"),
        ("Отправленные", "&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-"),
        ("📬 Post", "&2D3c7A- Post"),
        ("", ""),
        ("a\u{7F}b", "a&AH8-b"),
        ("tab\there", "tab&AAk-here"),
    ]

    func testKnownPairs() throws {
        for (decoded, encoded) in pairs {
            XCTAssertEqual(ModifiedUTF7.encodeToString(decoded), encoded, decoded)
            XCTAssertEqual(try ModifiedUTF7.decode(raw(encoded)), decoded, encoded)
        }
    }

    func testRandomRoundTrips() throws {
        var rng = SeededGenerator(seed: 7)
        let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x17F, 0x3040...0x30FF, 0x4E00...0x4FFF, 0x1F300...0x1F5FF, 0x01...0x1F]
        for _ in 0..<500 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...20, using: &rng) {
                let pool = pools[Int.random(in: 0..<pools.count, using: &rng)]
                if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &rng)) { s.append(scalar) }
            }
            let name = String(s)
            let encoded = ModifiedUTF7.encode(name)
            XCTAssertTrue(encoded.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }, name)
            XCTAssertEqual(try ModifiedUTF7.decode(encoded), name)
        }
    }

    func testInvalidInput() {
        func error(_ bytes: [UInt8]) -> ModifiedUTF7Error? {
            do {
                _ = try ModifiedUTF7.decode(bytes)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error(raw("&ZeVn")), .unterminatedShift(at: 0))
        XCTAssertEqual(error(raw("ab&")), .unterminatedShift(at: 2))
        XCTAssertEqual(error(raw("&Ze/n-")), .invalidBase64(0x2F, at: 3))
        XCTAssertEqual(error([0x61, 0xC3, 0xBC]), .invalidByte(0xC3, at: 1))
        XCTAssertEqual(error([0x61, 0x0A]), .invalidByte(0x0A, at: 1))
        XCTAssertEqual(error(raw("&A-")), .invalidPadding(at: 2))
        XCTAssertEqual(error(raw("&AAB-")), .invalidPadding(at: 4))
        XCTAssertEqual(error(raw("&2D0-")), .invalidUTF16(at: 4))
    }

    func testMailboxNameFallsBackForUndecodableNames() {
        let utf8 = MailboxName(raw: raw("Entwürfe"))
        XCTAssertEqual(utf8.name, "Entwürfe")
        XCTAssertEqual(utf8.raw, raw("Entwürfe"))
        let broken = MailboxName(raw: raw("a&b"))
        XCTAssertEqual(broken.name, "a&b")
        XCTAssertEqual(MailboxName("Entwürfe").raw, raw("Entw&APw-rfe"))
        XCTAssertEqual(MailboxName("Entwürfe"), MailboxName(raw: raw("Entw&APw-rfe")))
        XCTAssertTrue(MailboxName("inbox").isInbox)
        XCTAssertFalse(MailboxName("INBOX.Sent").isInbox)
    }
}
