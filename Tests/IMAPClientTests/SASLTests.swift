import SecureTransport
import XCTest

/// SASL responses, shared by the IMAP and SMTP clients.
final class SASLTests: XCTestCase {
    func testSASLPlain() {
        XCTAssertEqual(SASL.plain(user: "alice", password: "secret"), "AGFsaWNlAHNlY3JldA==")
        XCTAssertEqual(SASL.plain(user: "", password: ""), "AAA=")
        XCTAssertEqual(SASL.plain(user: "tim", password: "tanstaaftanstaaf", authorizationIdentity: "admin"),
                       "YWRtaW4AdGltAHRhbnN0YWFmdGFuc3RhYWY=")
    }

    func testSASLXOAuth2MatchesGooglesExample() {
        XCTAssertEqual(SASL.xoauth2(user: "someuser@example.com", token: "ya29.vF9dft4qmTc2Nvb3RlckBhdHRhdmlzdGEuY29tCg"),
                       "dXNlcj1zb21ldXNlckBleGFtcGxlLmNvbQFhdXRoPUJlYXJlciB5YTI5LnZGOWRmdDRxbVRjMk52YjNSbGNrQmhkSFJoZG1semRHRXVZMjl0Q2cBAQ==")
    }

    func testSASLLoginAnswersAreEachBase64() {
        XCTAssertEqual(SASL.login("alice"), "YWxpY2U=")
        XCTAssertEqual(SASL.login(""), "")
    }
}
