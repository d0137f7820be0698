import XCTest
@testable import IMAPProtocol

final class UIDSetTests: XCTestCase {
    func testParseAndFormat() throws {
        XCTAssertEqual(try UIDSet(parsing: "1:5,7,9:*").description, "1:5,7,9:*")
        XCTAssertEqual(try UIDSet(parsing: "*").description, "*")
        XCTAssertEqual(try UIDSet(parsing: "42").description, "42")
        XCTAssertEqual(try UIDSet(parsing: "4294967295").description, "4294967295")
        XCTAssertEqual(UIDSet.all.description, "1:*")
        XCTAssertEqual(UIDSet.from(17).description, "17:*")
        XCTAssertEqual(UIDSet().description, "")
    }

    func testCanonicalForm() throws {
        XCTAssertEqual(try UIDSet(parsing: "9:3").description, "3:9")
        XCTAssertEqual(try UIDSet(parsing: "*:4").description, "4:*")
        XCTAssertEqual(try UIDSet(parsing: "5,1,2,3,10:12,4,11").description, "1:5,10:12")
        XCTAssertEqual(try UIDSet(parsing: "1:3,2:8,20,9").description, "1:9,20")
        XCTAssertEqual(try UIDSet(parsing: "3:*,7,10:*,1").description, "1,3:*")
        XCTAssertEqual(try UIDSet(parsing: "5,*").description, "5,*")
        XCTAssertEqual(try UIDSet(parsing: "4294967295,*").description, "4294967295:*")
        XCTAssertEqual(try UIDSet(parsing: "3:9"), try UIDSet(parsing: "3:5,6:9"))
        XCTAssertEqual(UIDSet([7, 3, 4, 5, 9, 9, 8]).description, "3:5,7:9")
    }

    func testContainsCountAndIteration() throws {
        let set = try UIDSet(parsing: "1:5,7,9:12")
        XCTAssertEqual(set.count, 10)
        XCTAssertEqual(Array(set.uids), [1, 2, 3, 4, 5, 7, 9, 10, 11, 12])
        for uid: UInt32 in [1, 3, 5, 7, 9, 12] { XCTAssertTrue(set.contains(uid), "\(uid)") }
        for uid: UInt32 in [0, 6, 8, 13, .max] { XCTAssertFalse(set.contains(uid), "\(uid)") }
        XCTAssertEqual(set.first, 1)
        XCTAssertEqual(set.ranges.count, 3)
        XCTAssertEqual(set.ranges[2], UIDSet.Range(9...12))
        XCTAssertFalse(set.containsStar)

        let open = try UIDSet(parsing: "1:3,100:*")
        XCTAssertNil(open.count)
        XCTAssertTrue(open.containsStar)
        XCTAssertTrue(open.contains(100))
        XCTAssertTrue(open.contains(.max))
        XCTAssertFalse(open.contains(50))
        XCTAssertEqual(Array(open.uids), [1, 2, 3])
        XCTAssertEqual(open.resolvingStar(to: 102).description, "1:3,100:102")
        XCTAssertEqual(open.resolvingStar(to: 102).count, 6)
        XCTAssertFalse(try UIDSet(parsing: "*").contains(.max))
        XCTAssertEqual(try UIDSet(parsing: "1:4294967295").count, 4_294_967_295)
        XCTAssertEqual(UIDSet().count, 0)
        XCTAssertTrue(UIDSet().isEmpty)
    }

    func testInsertAndUnion() throws {
        var set = UIDSet(10)
        set.insert(12)
        XCTAssertEqual(set.description, "10,12")
        set.insert(11)
        XCTAssertEqual(set.description, "10:12")
        XCTAssertEqual(set.union(UIDSet(1...9)).description, "1:12")
        XCTAssertEqual(set.union(.from(13)).description, "10:*")
    }

    func testParseErrors() {
        func error(_ text: String) -> UIDSetParseError? {
            do {
                _ = try UIDSet(parsing: text)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error(""), .empty)
        XCTAssertEqual(error("0"), .zero(at: 0))
        XCTAssertEqual(error("3:0"), .zero(at: 2))
        XCTAssertEqual(error("4294967296"), .overflow(at: 0))
        XCTAssertEqual(error("1,,2"), .unexpectedByte(0x2C, at: 2))
        XCTAssertEqual(error("1:"), .unexpectedEnd)
        XCTAssertEqual(error("1,"), .unexpectedEnd)
        XCTAssertEqual(error("a"), .unexpectedByte(0x61, at: 0))
        XCTAssertEqual(error("1 2"), .unexpectedByte(0x20, at: 1))
        XCTAssertEqual(error("1:2:3"), .unexpectedByte(0x3A, at: 3))
        XCTAssertTrue(UIDSetParseError.overflow(at: 4).description.contains("offset 4"))
    }
}
