import Foundation
@testable import SearchQuery
import XCTest

final class SearchQueryTests: XCTestCase {
    /// 2024-06-15 12:00:00 UTC.
    let now = Date(timeIntervalSince1970: 1_718_452_800)

    func parse(_ q: String) throws -> SearchExpr { try SearchQuery.parse(q, now: now).expr }

    func word(_ w: String, _ f: TextField? = nil, phrase: Bool = false, prefix: Bool = false) -> SearchExpr {
        .text(TextTerm(field: f, text: w, isPhrase: phrase, isPrefix: prefix))
    }

    func failure(_ q: String) -> SearchQueryError? {
        do {
            _ = try SearchQuery.parse(q, now: now)
            return nil
        } catch {
            return error
        }
    }

    func testFreeWordsAreAnded() throws {
        XCTAssertEqual(try parse("hello"), word("hello"))
        XCTAssertEqual(try parse("hello  world"), .and([word("hello"), word("world")]))
        XCTAssertEqual(try parse("hello AND world"), .and([word("hello"), word("world")]))
        XCTAssertEqual(try parse("Grüße"), word("Grüße"))
    }

    func testPhrasesAndQuotes() throws {
        XCTAssertEqual(try parse("\"quarterly report\""), word("quarterly report", phrase: true))
        XCTAssertEqual(try parse("subject:\"big news\""), word("big news", .subject, phrase: true))
        XCTAssertEqual(try parse("\"say \"\"hi\"\"\""), word("say \"hi\"", phrase: true))
    }

    func testTextFields() throws {
        for f in TextField.allCases {
            XCTAssertEqual(try parse("\(f.rawValue):abc"), word("abc", f))
        }
        XCTAssertEqual(try parse("FROM:alice@example.com"), word("alice@example.com", .from))
        XCTAssertEqual(try parse("attachment:report.pdf"), word("report.pdf", .attachment))
        XCTAssertEqual(try parse("mimetype:application/pdf"), word("application/pdf", .mimetype))
    }

    func testPrefixWildcard() throws {
        XCTAssertEqual(try parse("repo*"), word("repo", prefix: true))
        XCTAssertEqual(try parse("\"repo*\""), word("repo*", phrase: true))
    }

    func testUnknownFieldIsText() throws {
        XCTAssertEqual(try parse("http://example.com"), word("http://example.com"))
        XCTAssertEqual(try parse("re:hello"), word("re:hello"))
    }

    func testFilters() throws {
        XCTAssertEqual(try parse("folder:INBOX"), .filter(.folder("INBOX")))
        XCTAssertEqual(try parse("account:work"), .filter(.account("work")))
        XCTAssertEqual(try parse("id:<abc@x>"), .filter(.messageID("abc@x")))
        XCTAssertEqual(try parse("id:abc@x"), .filter(.messageID("abc@x")))
        XCTAssertEqual(try parse("thread:t123"), .filter(.thread("t123")))
        XCTAssertEqual(try parse("is:unread"), .filter(.state(.unread)))
        XCTAssertEqual(try parse("is:STARRED"), .filter(.state(.starred)))
        XCTAssertEqual(try parse("is:attachment"), .filter(.state(.attachment)))
        XCTAssertEqual(try parse("has:Attachment"), .filter(.state(.attachment)), "Gmail's spelling")
        XCTAssertEqual(try parse("category:Social"), .filter(.category("social")))
    }

    func testBooleanPrecedence() throws {
        // NOT binds tighter than AND, AND tighter than OR.
        XCTAssertEqual(try parse("a b OR c"), .or([.and([word("a"), word("b")]), word("c")]))
        XCTAssertEqual(try parse("a OR b c"), .or([word("a"), .and([word("b"), word("c")])]))
        XCTAssertEqual(try parse("NOT a b"), .and([.not(word("a")), word("b")]))
        XCTAssertEqual(try parse("-a b"), .and([.not(word("a")), word("b")]))
        XCTAssertEqual(try parse("a -from:bob"), .and([word("a"), .not(word("bob", .from))]))
        XCTAssertEqual(try parse("a (b OR c)"), .and([word("a"), .or([word("b"), word("c")])]))
        XCTAssertEqual(try parse("not (a or b)"), .not(.or([word("a"), word("b")])))
        XCTAssertEqual(try parse("*"), .all)
        XCTAssertEqual(try parse("e-mail"), word("e-mail"))
    }

    func testDates() throws {
        func range(_ q: String) throws -> (Int64?, Int64?) {
            guard case .filter(.date(let lo, let hi)) = try parse(q) else { XCTFail(q); return (nil, nil) }
            return (lo, hi)
        }
        let jan1: Int64 = 1_704_067_200 // 2024-01-01
        let apr1: Int64 = 1_711_929_600 // 2024-04-01
        var r = try range("date:2024-01-01..2024-03-31")
        XCTAssertEqual(r.0, jan1)
        XCTAssertEqual(r.1, apr1)
        r = try range("date:2024-01-01")
        XCTAssertEqual(r.0, jan1)
        XCTAssertEqual(r.1, jan1 + 86_400)
        r = try range("date:2024")
        XCTAssertEqual(r.0, jan1)
        XCTAssertEqual(r.1, 1_735_689_600)
        r = try range("date:2024-02")
        XCTAssertEqual(r.1, jan1 + 60 * 86_400) // leap February
        r = try range("date:7d..")
        XCTAssertEqual(r.0, 1_718_452_800 - 7 * 86_400)
        XCTAssertNil(r.1)
        // Alone, the last 7 days: up to now, as `date:7d..now` (mail dated in the future is not in them).
        r = try range("date:7d")
        XCTAssertEqual(r.0, 1_718_452_800 - 7 * 86_400)
        XCTAssertEqual(r.1, try range("date:7d..now").1)
        XCTAssertEqual(r.1, 1_718_452_800 + 1)
        r = try range("date:..2024-01-01")
        XCTAssertNil(r.0)
        XCTAssertEqual(r.1, jan1 + 86_400)
        r = try range("date:2w..1d")
        XCTAssertEqual(r.0, 1_718_452_800 - 14 * 86_400)
        XCTAssertEqual(r.1, 1_718_452_800 - 86_400)
        r = try range("date:today")
        XCTAssertEqual(r.0, 1_718_409_600)
        r = try range("date:1M..")
        XCTAssertEqual(r.0, 1_718_452_800 - 31 * 86_400) // May has 31 days
        // A time to the minute or second (UTC), as `mailstore log` prints them: the upper one includes its span.
        r = try range("date:2024-01-01T10:30..2024-01-01T11:00:05Z")
        XCTAssertEqual(r.0, jan1 + 10 * 3600 + 30 * 60)
        XCTAssertEqual(r.1, jan1 + 11 * 3600 + 6)
    }

    /// Every form `TimePoint` reads, and what it refuses (a bad field, a day the month has not, a time without a
    /// day, an hour past 23, a count too large, text past its bound).
    func testTimePoints() {
        let now = Date(timeIntervalSince1970: 1_718_452_800) // 2024-06-15 12:00:00 UTC
        let jan1: Int64 = 1_704_067_200
        func p(_ s: String) -> TimePoint? { TimePoint.parse(s, now: now) }
        XCTAssertEqual(p("2024-01-01 10:30"), TimePoint(start: jan1 + 37_800, end: jan1 + 37_860, relative: false))
        XCTAssertEqual(p("2024-01-01T10:30:07Z"), TimePoint(start: jan1 + 37_807, end: jan1 + 37_808, relative: false))
        XCTAssertEqual(p("2024-01-01"), TimePoint(start: jan1, end: jan1 + 86_400, relative: false))
        XCTAssertEqual(p("2h"), TimePoint(start: 1_718_452_800 - 7_200, end: 1_718_452_800 - 7_200, relative: true))
        XCTAssertEqual(p("NOW"), TimePoint(start: 1_718_452_800, end: 1_718_452_801, relative: true))
        XCTAssertEqual(p("yesterday")?.start, 1_718_409_600 - 86_400)
        for bad in ["", "2024-02-30", "2024-13", "24-01-01", "10:30", "2024-01 10:30", "2024-01-01 24:00", "2024-01-01 10:60",
                    "2024-01-01 10:30:61", "2024-01-01 1:30", "2024-01-01T10", "2024-01-01T10:30:00+02:00", "100001d", "-1d",
                    "２０２４", String(repeating: "9", count: 65) + "d"] {
            XCTAssertNil(p(bad), bad)
        }
    }

    func testSizes() throws {
        func range(_ q: String) throws -> (UInt64?, UInt64?) {
            guard case .filter(.size(let lo, let hi)) = try parse(q) else { XCTFail(q); return (nil, nil) }
            return (lo, hi)
        }
        var r = try range("size:>1M")
        XCTAssertEqual(r.0, 1_048_577)
        XCTAssertNil(r.1)
        r = try range("size:<=10k")
        XCTAssertEqual(r.1, 10_240)
        r = try range("size:10K..2MB")
        XCTAssertEqual(r.0, 10_240)
        XCTAssertEqual(r.1, 2_097_152)
        r = try range("size:500")
        XCTAssertEqual(r.0, 500)
        XCTAssertEqual(r.1, 500)
    }

    func testErrorsPointAtThePosition() {
        let cases: [(String, Int, String)] = [
            ("", 0, "empty"),
            ("from:alice date:2024-13-01", 16, "invalid date"),
            ("hello (world", 6, "never closed"),
            ("hello world)", 11, "no matching"),
            ("a \"open phrase", 2, "never closed"),
            ("is:sleepy", 3, "unknown state"),
            ("has:drive", 4, "has: takes attachment"),
            ("category:fun", 9, "unknown category"),
            ("a OR", 2, "OR needs"),
            ("OR a", 0, "OR needs"),
            ("a AND", 2, "AND needs"),
            ("NOT", 0, "needs a term"),
            ("a ()", 3, "empty"),
            (")", 0, "no matching '('"),
            (") a", 0, "no matching '('"),
            ("a OR )", 2, "OR needs"),
            ("size:lots", 5, "invalid size"),
            ("date:..", 5, "at least one side"),
            ("date:2024-03-01..2024-01-01", 5, "empty"),
            ("date:2024-02-30", 5, "invalid date"),
            ("subject:(a b)", 8, "parentheses"),
            ("from: alice", 4, "needs a value"),
            ("...", 0, "no letters"),
            ("size:2k..1k", 5, "empty"),
        ]
        for (q, offset, words) in cases {
            guard let e = failure(q) else {
                XCTFail("'\(q)' parsed")
                continue
            }
            XCTAssertEqual(e.offset, offset, "'\(q)': \(e.message)")
            XCTAssertTrue(e.message.contains(words), "'\(q)': \(e.message)")
        }
    }

    func testCaretMessage() {
        let e = failure("from:alice date:2024-13-01")!
        let lines = e.pointing(at: "from:alice date:2024-13-01").split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[1].firstIndex(of: "^").map { lines[1].distance(from: lines[1].startIndex, to: $0) }, 16)
        // Control characters do not shift the caret.
        let q = "a\tb\n("
        let p = failure(q)!.pointing(at: q).split(separator: "\n")
        XCTAssertEqual(p[0], "a b (")
        XCTAssertEqual(p[1], "    ^ this '(' is never closed; add a ')'")
        // A long query is shown around the problem, not whole: the caret still under it.
        let long = String(repeating: "word ", count: 400) + "date:2024-13-01 " + String(repeating: "more ", count: 300)
        let e2 = failure(long)!
        let l = e2.pointing(at: long).split(separator: "\n")
        XCTAssertEqual(l.count, 2)
        XCTAssertLessThanOrEqual(l[0].count, 74)
        XCTAssertTrue(l[0].hasPrefix("…") && l[0].hasSuffix("…"), String(l[0]))
        let caret = l[1].distance(from: l[1].startIndex, to: l[1].firstIndex(of: "^")!)
        XCTAssertEqual(String(Array(l[0])[caret...].prefix(10)), "2024-13-01")
        // Near either end, the window starts or ends there.
        let atEnd = failure(String(repeating: "a ", count: 100) + "(")!.pointing(at: String(repeating: "a ", count: 100) + "(").split(separator: "\n")
        XCTAssertTrue(atEnd[0].hasPrefix("…") && atEnd[0].hasSuffix("("), String(atEnd[0]))
        XCTAssertEqual(atEnd[1].firstIndex(of: "^").map { atEnd[1].distance(from: atEnd[1].startIndex, to: $0) }, 72)
    }

    func testHostileInputIsBounded() {
        XCTAssertNotNil(failure(String(repeating: "a ", count: 3000)))
        let deep = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        XCTAssertTrue(failure(deep)?.message.contains("nests deeper") ?? false)
        let nots = String(repeating: "NOT ", count: 100) + "a"
        XCTAssertTrue(failure(nots)?.message.contains("nests deeper") ?? false)
        XCTAssertNoThrow(try parse(String(repeating: "(", count: 30) + "a" + String(repeating: ")", count: 30)))
        // Prefixes: at most 4 in one query, counted in fields too; the fifth is pointed at.
        let four = (0..<4).map { "w\($0)*" }.joined(separator: " ")
        XCTAssertNoThrow(try parse(four + " word"))
        let five = failure(four + " from:ab*")
        XCTAssertTrue(five?.message.contains("at most 4 prefixes") ?? false, "\(String(describing: five))")
        XCTAssertEqual(five?.offset, four.utf8.count + 6)
        XCTAssertNotNil(failure(String(repeating: "a* ", count: 100)))
    }

    /// A letter with many combining marks is one character to the 4,096-character bound, and words were compared
    /// through Unicode normalization, quadratic in the marks: `e` with 8,000 pairs of alternating marks (32 KB) took
    /// 19 s to parse (outside the search's time limit) and was searched. A character holds at most 32 scalars, a query
    /// at most 16 KiB; an accented letter, a family emoji and a flag still parse.
    func testCharactersWithThousandsOfMarksAndOversizedQueriesAreRefused() {
        let marks = "e" + String(repeating: "\u{301}\u{316}", count: 100)
        let e = failure("find " + marks)
        XCTAssertEqual(e?.offset, 5, "\(String(describing: e))")
        XCTAssertTrue(e?.message.contains("200 combining marks") ?? false, "\(String(describing: e))")
        XCTAssertNotNil(failure("e" + String(repeating: "\u{301}\u{316}", count: 8000)))
        // 3,000 characters (a letter with 5 marks, a space) in 18,000 bytes: under 4,096 characters, over 16 KiB.
        let big = failure(String(repeating: "a\u{301}\u{316}\u{302}\u{303}\u{304} ", count: 1500))
        XCTAssertTrue(big?.message.contains("16384 bytes") ?? false, "\(String(describing: big))")
        XCTAssertNoThrow(try parse("caf\u{65}\u{301} family\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} fr\u{1F1EB}\u{1F1F7}"))
        XCTAssertNoThrow(try parse("e" + String(repeating: "\u{301}", count: 31)))
        XCTAssertEqual(try parse("a or b"), .or([word("a"), word("b")]), "operators still read in any case")
    }
}
