import Foundation

/// Base64 (RFC 2045 §6.8) for bodies and encoded words.
enum Base64Lines {
    /// `bytes` in base64 on one line.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// `bytes` in base64, in lines of 76 characters each ended by CRLF (the last one too).
    static func body(_ bytes: [UInt8]) -> [UInt8] {
        let text = Data(bytes).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn,
                                                              .endLineWithLineFeed])
        var out = Array(text.utf8)
        if !out.isEmpty { out.append(contentsOf: [0x0D, 0x0A]) }
        return out
    }
}
