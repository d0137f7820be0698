import SecureTransport
import XCTest

/// The OAUTHBEARER message (RFC 7628) and the decoding of a server's failure challenge.
final class OAuthSASLTests: XCTestCase {
    func testOAuthBearerMessage() throws {
        let encoded = SASL.oauthBearer(user: "a,b=c@example.com", token: "tok", host: "imap.example.com", port: 993)
        let decoded = try XCTUnwrap(Data(base64Encoded: encoded))
        XCTAssertEqual(String(decoding: decoded, as: UTF8.self),
                       "n,a=a=2Cb=3Dc@example.com,\u{01}host=imap.example.com\u{01}port=993\u{01}auth=Bearer tok\u{01}\u{01}")
    }

    func testFailureChallengeIsDecoded() {
        let json = #"{"status":"invalid_token","scope":"https://mail.google.com/"}"#
        XCTAssertEqual(SASL.oauthFailure(Data(json.utf8).base64EncodedString()), json)
        XCTAssertNil(SASL.oauthFailure(""))
        XCTAssertNil(SASL.oauthFailure("not base64!"))
        XCTAssertNil(SASL.oauthFailure(Data("plain text".utf8).base64EncodedString()), "only a JSON object is a failure message")
        let hostile = Data("{\"status\":\"\u{1b}[31mred\"}".utf8).base64EncodedString()
        XCTAssertEqual(SASL.oauthFailure(hostile), "{\"status\":\"[31mred\"}", "control characters are dropped")
    }
}
