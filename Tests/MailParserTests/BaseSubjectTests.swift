import XCTest
@testable import MailParser

final class BaseSubjectTests: XCTestCase {
    func testPrefixes() {
        let cases: [(String, String)] = [
            ("Re: hello", "hello"),
            ("RE: Re: re: hello", "hello"),
            ("Fwd: Fw: FW: hello", "hello"),
            ("Aw: AW: Sv: SV: Antw: hello", "hello"),
            ("Réf: hello", "hello"),
            ("回复: 转发：hello", "hello"),
            ("Re[2]: hello", "hello"),
            ("Re(3): Re [4]: hello", "hello"),
            ("[list] Re: [other] hello", "hello"),
            ("[notmuch] [PATCH 1/2] Close message file", "Close message file"),
            ("  Re :   spaced    out  ", "spaced out"),
            ("hello (fwd)", "hello"),
            ("Rebuild: the tree", "Rebuild: the tree"),
            ("Re:", ""),
            ("[only tag]", "[only tag]"),
            ("", ""),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(BaseSubject.of(input), expected, input)
        }
    }
}
