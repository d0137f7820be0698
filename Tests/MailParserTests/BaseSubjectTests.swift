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
            ("[list] Re: [other] hello", "[list] [other] hello"),
            ("[notmuch] [PATCH 1/2] Close message file", "[notmuch] [PATCH 1/2] Close message file"),
            ("Re: [list] Re: AW: hello", "[list] hello"),
            ("[SECURITY] Critical update", "[SECURITY] Critical update"),
            ("Fwd: [SPAM] win", "[SPAM] win"),
            ("[EXTERNAL] Re: Invoice 4411", "[EXTERNAL] Invoice 4411"),
            ("[EXTERNAL] RE: [EXTERNAL] hi", "[EXTERNAL] hi"),
            ("[External] RE: [EXTERNAL] Re: [EXTERNAL] hi", "[External] hi"),
            ("[list] Re: [other] hi", "[list] [other] hi"),
            ("[a] [b] Re:", "[a] [b]"),
            ("[unclosed Re: x", "[unclosed Re: x"),
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

    /// Every prefix, in each case, with each separator: stripped exactly when a colon (after an optional counter and
    /// spaces) follows it; words that only start like a prefix, or a prefix followed by a letter, a digit or nothing,
    /// are left as they are (a subject whose first bytes cannot start a prefix is let through without comparing them).
    func testAPrefixIsStrippedOnlyBeforeItsColon() {
        let stripping = [":", " :", "\t:", "[2]:", "(3) :", " [12] :", "："]
        let keeping = ["", " ", "2:", "x:", "[a]:", "- x:"]
        for prefix in BaseSubject.replyPrefixes + BaseSubject.forwardPrefixes {
            for form in [prefix, prefix.uppercased(), prefix.capitalized] {
                for sep in stripping {
                    XCTAssertEqual(BaseSubject.of(form + sep + " hello world"), "hello world", form + sep)
                }
                for sep in keeping {
                    let subject = form + sep + " hello"
                    XCTAssertEqual(BaseSubject.of(subject), subject.split(separator: " ").joined(separator: " "), subject)
                }
            }
        }
        for subject in ["Review: notes", "Antwort: later", "Travel plans", "Encore: again", "Reply all", "Resend: it",
                        "Fwdx: no", "A: one letter", "Quarterly report", "2024: plans", "Zoë: café", "Re", "ré: non"] {
            XCTAssertEqual(BaseSubject.of(subject), subject, subject)
        }
    }
}
