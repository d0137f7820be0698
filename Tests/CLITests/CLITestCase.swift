import Foundation
import TestSupport
import XCTest

/// Runs the real `mailstore` binary against a temp store.
class CLITestCase: XCTestCase {
    var dir: TemporaryDirectory!
    var store: String { dir.file("store") }

    override func setUp() {
        super.setUp()
        dir = TemporaryDirectory("cli")
    }

    override func tearDown() {
        dir = nil
        super.tearDown()
    }

    @discardableResult
    func mailstore(_ args: String..., expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }
}
