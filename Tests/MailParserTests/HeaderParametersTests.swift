import XCTest
@testable import MailParser

final class HeaderParametersTests: XCTestCase {
    func testBasicParameters() {
        let (v, p) = HeaderParameters.parse("Text/HTML; Charset=\"UTF-8\"; format=flowed")
        XCTAssertEqual(v, "text/html")
        XCTAssertEqual(p["charset"], "UTF-8")
        XCTAssertEqual(p["format"], "flowed")
    }

    func testRFC2231ContinuationsWithCharset() {
        let value = "attachment; filename*0*=UTF-8''na%C3%AFve%20; filename*1*=r%C3%A9sum%C3%A9; filename*2=.pdf"
        let (v, p) = HeaderParameters.parse(value)
        XCTAssertEqual(v, "attachment")
        XCTAssertEqual(p["filename"], "naïve résumé.pdf")
    }

    func testRFC2231OutOfOrderAndPlainContinuations() {
        let (_, p) = HeaderParameters.parse("message/external-body; URL*1=\"/b/c\"; URL*0=\"ftp://a\"")
        XCTAssertEqual(p["url"], "ftp://a/b/c")
    }

    func testRFC2231SingleExtendedLatin1() {
        let (_, p) = HeaderParameters.parse("attachment; filename*=iso-8859-1'en'%A3%20rates.txt")
        XCTAssertEqual(p["filename"], "£ rates.txt")
    }

    func testRFC2231WinsOverPlain() {
        let (_, p) = HeaderParameters.parse("attachment; filename=\"fallback.txt\"; filename*=UTF-8''real%E2%82%AC.txt")
        XCTAssertEqual(p["filename"], "real€.txt")
    }

    func testEncodedWordInQuotedFilename() {
        let (_, p) = HeaderParameters.parse("attachment; filename=\"=?UTF-8?B?w6TDtsO8LnR4dA==?=\"")
        XCTAssertEqual(p["filename"], "äöü.txt")
    }

    func testMissingSemicolonAndGarbage() {
        let (v, p) = HeaderParameters.parse("text/plain charset=\"utf-8\" format=flowed; ; junk; name=a b.txt")
        XCTAssertEqual(v, "text/plain")
        XCTAssertEqual(p["name"], "a b.txt")
        let (_, p2) = HeaderParameters.parse("text/plain; charset=\"utf-8\" format=flowed")
        XCTAssertEqual(p2["charset"], "utf-8")
        XCTAssertEqual(p2["format"], "flowed")
    }

    func testEscapesAndComments() {
        let (v, p) = HeaderParameters.parse("text/plain (a comment); name=\"a \\\"quoted\\\" name\"")
        XCTAssertEqual(v, "text/plain")
        XCTAssertEqual(p["name"], "a \"quoted\" name")
    }

    func testPartFilenameFromContentTypeName() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: application/pdf; name*0="long"; name*1="name.pdf"

        %PDF
        --b--
        """)
        XCTAssertEqual(m.root.children.last?.filename, "longname.pdf")
        XCTAssertEqual(m.attachments.first?.filename, "longname.pdf")
    }
}
