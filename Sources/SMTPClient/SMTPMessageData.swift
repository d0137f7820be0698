/// The bytes that go after `DATA` (RFC 5321 §4.5.2): lines end with CRLF, a line starting with
/// `.` gets a second `.`, and the message ends with `CRLF . CRLF`.
package enum SMTPMessageData {
    /// `message` ready to send after `DATA`: every bare CR or LF becomes CRLF, leading dots are
    /// doubled, a missing final line end is added, and the terminating `.` line follows.
    package static func encode(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + message.count / 50 + 5)
        var atLineStart = true
        var index = 0
        while index < message.count {
            let byte = message[index]
            index += 1
            if byte == 0x0D || byte == 0x0A {
                if byte == 0x0D, index < message.count, message[index] == 0x0A { index += 1 }
                out.append(contentsOf: [0x0D, 0x0A])
                atLineStart = true
                continue
            }
            if atLineStart, byte == 0x2E { out.append(0x2E) }
            out.append(byte)
            atLineStart = false
        }
        if !atLineStart { out.append(contentsOf: [0x0D, 0x0A]) }
        out.append(contentsOf: [0x2E, 0x0D, 0x0A])
        return out
    }

    /// Whether `message` holds a byte above 127 (and so needs `BODY=8BITMIME`).
    package static func hasEightBitBytes(_ message: [UInt8]) -> Bool {
        message.contains { $0 >= 0x80 }
    }
}
