import Foundation
import TestSupport
import XCTest

/// Runs the real `mailstore` binary against a temp store.
class CLITestCase: FolderTestCase {
    override class var folderPrefix: String { "cli" }
    var store: String { dir.file("store") }

    @discardableResult
    func mailstore(_ args: String..., stdin: String? = nil, expect status: Int32 = 0, file: StaticString = #filePath,
                   line: UInt = #line) throws -> ChildProcess.Result {
        try mailstore(args, stdin: stdin, expect: status, file: file, line: line)
    }

    /// The same, with the arguments as an array.
    @discardableResult
    func mailstore(_ args: [String], stdin: String? = nil, expect status: Int32 = 0, file: StaticString = #filePath,
                   line: UInt = #line) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env, stdin: stdin)
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }
}
