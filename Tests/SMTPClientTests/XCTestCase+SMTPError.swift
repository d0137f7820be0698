import SMTPClient
import XCTest

extension XCTestCase {
    /// Asserts that `body` throws an ``SMTPClientError`` and returns it (nil, with a failure, otherwise).
    func smtpError<T>(_ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> SMTPClientError? {
        do {
            _ = try body()
            XCTFail("no error was thrown", file: file, line: line)
        } catch let error as SMTPClientError {
            return error
        } catch {
            XCTFail("not an SMTPClientError: \(error)", file: file, line: line)
        }
        return nil
    }
}
