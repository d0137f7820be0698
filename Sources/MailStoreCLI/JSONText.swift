import Foundation
import MailStore

/// JSON output as it is printed: the encoder's text with DEL, C1 controls, bidi controls and line separators
/// written as `\uXXXX` too (`TerminalSanitiser.jsonEscaped`), so `--json` piped to a terminal is as safe as the text
/// output, and the same JSON to a reader.
enum JSONText {
    /// The JSON text of `data` (UTF-8 JSON), escaped.
    static func string(_ data: Data) -> String {
        TerminalSanitiser.jsonEscaped(String(decoding: data, as: UTF8.self))
    }

    /// The bytes of `string(data)`.
    static func data(_ data: Data) -> Data {
        guard data.contains(where: { $0 >= 0x7F }) else { return data }
        return Data(string(data).utf8)
    }
}
