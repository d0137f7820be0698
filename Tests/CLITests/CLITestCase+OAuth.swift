import Foundation
import XCTest

extension CLITestCase {
    /// Changes the OAuth token file at `path` as JSON (e.g. its access token made due: `accessTokenExpires` 1000),
    /// kept 0600.
    func editTokenFile(_ path: String, _ change: (inout [String: Any]) -> Void) throws {
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        change(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }
}
