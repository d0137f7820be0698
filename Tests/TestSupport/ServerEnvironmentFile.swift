import Foundation

/// The `KEY=value` lines a test server's start script writes (`env`, `smtp-env`).
enum ServerEnvironmentFile {
    /// The values in `path`; throws, naming `startCommand`, when the file cannot be read or lacks one of `required`.
    static func read(_ path: String, required: [String], startCommand: String) throws -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TestServerError("cannot read \(path): start the server with `\(startCommand)`")
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let missing = required.filter { values[$0] == nil }
        guard missing.isEmpty else { throw TestServerError("\(path) lacks \(missing.joined(separator: ", "))") }
        return values
    }
}
