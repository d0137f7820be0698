import XCTest
@testable import MailParser

final class FlagsTests: XCTestCase {
    func testMaildirFlags() {
        XCTAssertEqual(MaildirFilename.flags(of: "1529425589.M615261P21663.host:2,FRS"),
                       ["\\Flagged", "\\Answered", "\\Seen"])
        XCTAssertEqual(MaildirFilename.flags(of: "cur/123.abc!2,DPT"), ["\\Draft", "$Forwarded", "\\Deleted"])
        XCTAssertEqual(MaildirFilename.flags(of: "/x/y:2,/123.abc:2,Sab"), ["\\Seen"])
        XCTAssertEqual(MaildirFilename.flags(of: "123.abc:2,"), [])
        XCTAssertEqual(MaildirFilename.flags(of: "123.abc"), [])
        XCTAssertEqual(MaildirFilename.flags(of: "123.abc:1,S"), [])
        XCTAssertEqual(MaildirFilename.uniquePart(of: "new/123.abc:2,S"), "123.abc")
        XCTAssertEqual(MaildirFilename.infoLetters(of: "123.abc:2,RS"), "RS")
        // Names are read as bytes: other scripts around the letters, a letter twice, a path of several parts.
        XCTAssertEqual(MaildirFilename.flags(of: "pôst/ünïque.日本:2,SSé F"), ["\\Seen", "\\Flagged"])
        XCTAssertEqual(MaildirFilename.uniquePart(of: "a/b/ünïque.日本:2,S"), "ünïque.日本")
        XCTAssertEqual(MaildirFilename.uniquePart(of: "ünïque"), "ünïque")
    }

    func testMboxStatus() {
        XCTAssertEqual(MboxStatus.flags(status: "RO", xStatus: "AF"), ["\\Seen", "\\Answered", "\\Flagged"])
        XCTAssertEqual(MboxStatus.flags(status: "O", xStatus: nil), [])
        XCTAssertEqual(MboxStatus.flags(status: nil, xStatus: "TD"), ["\\Draft", "\\Deleted"])
        XCTAssertEqual(MboxStatus.flags(status: "RR", xStatus: "AA"), ["\\Seen", "\\Answered"])
        XCTAssertTrue(MboxStatus.isNew(status: nil))
        XCTAssertFalse(MboxStatus.isNew(status: "O"))
        XCTAssertFalse(MboxStatus.isNew(status: "RO"))
    }
}
