import Foundation
@testable import MailStore
import XCTest

/// The notify command of `sync --watch` runs within its bounds: a hung one is killed with its children when its time
/// is up (the watch had waited for the orphaned child too), and one that reads nothing of a large notification ends
/// the run, not the watch (the write to its pipe had trapped).
final class NotifyCommandTests: XCTestCase {
    func testAHungCommandIsKilledWithItsChildrenAtItsDeadline() throws {
        let start = Date()
        let outcome = NotifyCommand(command: "sleep 60; true", timeoutSeconds: 0.5).run(input: Array("{}\n".utf8))
        XCTAssertEqual(outcome, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "not the child's 60 s")
    }

    func testACommandThatReadsNothingOfALargeInputIsARunNotACrash() throws {
        signal(SIGPIPE, SIG_IGN)  // as the watch sets it
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        XCTAssertEqual(NotifyCommand(command: "exit 0", timeoutSeconds: 5).run(input: big), .exited(0))
        XCTAssertEqual(NotifyCommand(command: "exit 3", timeoutSeconds: 5).run(input: big), .exited(3))
        // A command that neither reads nor exits is still bounded by its deadline.
        XCTAssertEqual(NotifyCommand(command: "sleep 30", timeoutSeconds: 0.5).run(input: big), .timedOut)
    }

    func testTheInputReachesTheCommand() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        defer { unlink(out) }
        XCTAssertEqual(NotifyCommand(command: "cat > '\(out)'", timeoutSeconds: 5).run(input: Array("{\"a\":1}\n".utf8)), .exited(0))
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "{\"a\":1}\n")
    }
}
