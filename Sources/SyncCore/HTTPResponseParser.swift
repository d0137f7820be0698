import Foundation

/// Reads an HTTP/1.x response received whole (the connection read to its end, `Connection: close`): status line,
/// headers, and the body framed by `Transfer-Encoding: chunked`, `Content-Length`, or the end. Pure: no I/O; the
/// bytes are a server's, so hostile: every index is checked, a chunk size is at most 15 hex digits, and nothing is
/// allocated beyond the input's size (the caller bounds the input: `HTTPClient.maxResponseBytes`).
package enum HTTPResponseParser {
    /// Why a response was not accepted (the text names what is wrong, in the server's terms).
    package struct Malformed: Error, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    /// The response in `raw`.
    package static func parse(_ raw: [UInt8]) throws(Malformed) -> HTTPResponse {
        var end: Int?
        var i = 0
        while i + 3 < raw.count {
            if raw[i] == 13 && raw[i + 1] == 10 && raw[i + 2] == 13 && raw[i + 3] == 10 {
                end = i
                break
            }
            i += 1
        }
        guard let end else { throw Malformed(reason: "no end of the headers") }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3,
              statusParts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let status = Int(statusParts[1]), (100...599).contains(status) else {
            throw Malformed(reason: "the status line is not HTTP/1.x")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(raw[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try dechunk(body)
        } else if let length = headers["content-length"] {
            // Digits only: `Int` would take a sign ("+5"), which RFC 9110's 1*DIGIT does not.
            guard !length.isEmpty, length.utf8.count <= 18, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let n = Int(length) else {
                throw Malformed(reason: "Content-Length \(printable(length))")
            }
            guard n <= body.count else { throw Malformed(reason: "the body ends after \(body.count) of \(n) bytes") }
            body.removeLast(body.count - n)
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// The body of a chunked transfer coding (RFC 9112 section 7.1): chunk sizes in hex (extensions
    /// ignored), each chunk followed by CRLF, ended by a zero-size chunk (trailers ignored).
    package static func dechunk(_ data: [UInt8]) throws(Malformed) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while true {
            var lineEnd = i
            while lineEnd + 1 < data.count && !(data[lineEnd] == 13 && data[lineEnd + 1] == 10) { lineEnd += 1 }
            guard lineEnd + 1 < data.count else { throw Malformed(reason: "a chunked body ends without its last chunk") }
            let sizeText = String(decoding: data[i..<lineEnd], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            // At most 15 hex digits: any size that fits the response bound does, and Int cannot overflow.
            guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0 else {
                throw Malformed(reason: "a bad chunk size")
            }
            if size == 0 { return out }
            let start = lineEnd + 2
            guard size <= data.count - start else { throw Malformed(reason: "a chunk ends early") }
            out += data[start..<start + size]
            i = start + size + 2
            guard i <= data.count, data[i - 2] == 13, data[i - 1] == 10 else { throw Malformed(reason: "a chunk without its CRLF") }
        }
    }

    /// At most 40 characters of `text` from a server, anything but printable ASCII shown as `?` (it goes into an error
    /// a terminal shows).
    static func printable(_ text: String) -> String {
        String(decoding: text.utf8.prefix(40).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
