/// One reply of an SMTP server: a three-digit code and one or more lines of text.
package struct SMTPReply: Sendable, Hashable, CustomStringConvertible {
    /// The reply code, e.g. 250 or 550.
    package var code: Int
    /// The enhanced status code (RFC 3463) the first line starts with, e.g. "5.1.1", when present.
    package var enhancedCode: String?
    /// The text of each line, after the code and its separator (an enhanced code left in place).
    package var lines: [String]

    /// A reply with the given parts; `enhancedCode` is read from the first line when not given.
    package init(code: Int, lines: [String], enhancedCode: String? = nil) {
        self.code = code
        self.lines = lines
        self.enhancedCode = enhancedCode ?? SMTPReply.enhancedCode(in: lines.first ?? "", replyCode: code)
    }

    /// 2xx: the command succeeded.
    package var isPositiveCompletion: Bool { code / 100 == 2 }
    /// 3xx: the server waits for more (the message after `DATA`, an `AUTH` response).
    package var isPositiveIntermediate: Bool { code / 100 == 3 }
    /// 4xx: a temporary failure; the same command may succeed later.
    package var isTransientFailure: Bool { code / 100 == 4 }
    /// 5xx: a permanent failure; repeating the same command will fail again.
    package var isPermanentFailure: Bool { code / 100 == 5 }

    /// The lines' text joined with spaces, without the enhanced codes.
    package var text: String {
        lines.map { line in
            guard let code = enhancedCode, line.hasPrefix(code + " ") else { return line }
            return String(line.dropFirst(code.count + 1))
        }.joined(separator: " ")
    }

    /// The reply as the server wrote it, on one line: "550 5.1.1 Mailbox unavailable".
    package var description: String {
        ([String(code)] + (enhancedCode.map { [$0] } ?? []) + [text]).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The enhanced status code `line` starts with (`class.subject.detail`, the class matching the
    /// reply code's first digit), or nil. Read on the line's first 12 bytes (the longest code, `5.123.123`,
    /// and its space), however long the line.
    static func enhancedCode(in line: String, replyCode: Int) -> String? {
        // class "." subject "." detail: one digit (the reply code's class: 2, 4 or 5), then two runs of 1 to 3
        // digits, then a space or the end of the line.
        let classDigit = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: replyCode / 100)
        guard classDigit == UInt8(ascii: "2") || classDigit == UInt8(ascii: "4") || classDigit == UInt8(ascii: "5") else { return nil }
        var length = 0, dots = 0, run = 0
        for b in line.utf8.prefix(12) {
            if b == 0x20 { break }
            length += 1
            if length == 1 {
                guard b == classDigit else { return nil }
                run = 1
            } else if b == UInt8(ascii: ".") {
                guard run >= 1, dots < 2 else { return nil }
                dots += 1
                run = 0
            } else {
                guard (0x30...0x39).contains(b), length > 2, run < 3 else { return nil }
                run += 1
            }
        }
        guard length <= 11, dots == 2, run >= 1 else { return nil }
        return String(line.utf8.prefix(length))
    }
}
