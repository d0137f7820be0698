import FuzzSupport
import SyncCore

/// Fuzzes what account discovery and OAuth read from the network: DNS answers (`DNSMessage`, SRV and MX), an
/// autoconfig document (`AutoconfigParser`, libxml2 through Foundation's `XMLParser`) and an HTTP response
/// (`HTTPResponseParser`, chunked bodies included). The first byte chooses the parser (its value modulo 4); the
/// rest is what a server sent.
///
/// Invariants checked for every input:
/// - DNS: at most 64 answers, in priority (SRV: then weight, highest first) or preference order; no name longer
///   than a name's 255 bytes can decode to; a query for a name made from the input, answered with a compression
///   pointer back to its question, reads back as that name (lowercased);
/// - autoconfig: every server found has a host with no space or '/', and a port above 0;
/// - HTTP: a status in 100...599, a body no longer than the input, header names lowercased; the response written
///   back with its body framed by Content-Length reads as the same status, headers and body; the input's bytes sent
///   as a chunked body (chunk sizes from the input, some with extensions) de-chunk to themselves.
enum DiscoveryFuzz {
    static func check(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        switch selector % 4 {
        case 0: dnsSRV(rest)
        case 1: dnsMX(rest)
        case 2: autoconfig(rest)
        default: http(rest)
        }
    }

    /// The most bytes a decoded name may have: 255 wire bytes, each decoded to at most 3 (U+FFFD for a byte that is
    /// not UTF-8) and lowercasing growing a character by at most half again.
    static let maxNameBytes = 255 * 3 * 3 / 2

    /// The transaction id a response carries (its first two bytes), so answers are not all refused as another query's.
    static func id(of bytes: [UInt8]) -> UInt16 { bytes.count >= 2 ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : 0 }

    static func dnsSRV(_ bytes: [UInt8]) {
        if let answers = try? DNSMessage.srv(bytes, id: id(of: bytes)) {
            FuzzCheck.require(answers.count <= 64, "\(answers.count) SRV answers")
            for (a, b) in zip(answers, answers.dropFirst()) {
                FuzzCheck.require(a.priority < b.priority || (a.priority == b.priority && a.weight >= b.weight), "SRV order \(answers)")
            }
            for a in answers { FuzzCheck.require(a.target.utf8.count <= maxNameBytes, "SRV target of \(a.target.utf8.count) bytes") }
        }
        queryRoundTrip(bytes)
    }

    static func dnsMX(_ bytes: [UInt8]) {
        if let answers = try? DNSMessage.mx(bytes, id: id(of: bytes)) {
            FuzzCheck.require(answers.count <= 64, "\(answers.count) MX answers")
            for (a, b) in zip(answers, answers.dropFirst()) { FuzzCheck.require(a.preference <= b.preference, "MX order \(answers)") }
            for a in answers { FuzzCheck.require(a.exchange.utf8.count <= maxNameBytes, "MX exchange of \(a.exchange.utf8.count) bytes") }
        }
        queryRoundTrip(bytes)
    }

    /// A query for the input read as a name, answered by one MX record whose exchange points back at the question:
    /// the answer's exchange is the name asked for.
    static func queryRoundTrip(_ bytes: [UInt8]) {
        let name = String(decoding: bytes.prefix(300), as: UTF8.self)
        guard var message = DNSMessage.query(id: 0x4d53, name: name, type: .mx) else { return }
        FuzzCheck.require(message.count <= 12 + 255 + 4, "a query of \(message.count) bytes")
        message[2] |= 0x80
        message[7] = 1
        // The answer: its owner and its exchange both a pointer to the question's name at offset 12.
        message += [0xc0, 12, 0, 15, 0, 1, 0, 0, 0, 60, 0, 4, 0, 10, 0xc0, 12]
        let expected = name.split(separator: ".", omittingEmptySubsequences: true).map { $0.lowercased() }.joined(separator: ".")
        do {
            let answers = try DNSMessage.mx(message, id: 0x4d53)
            FuzzCheck.require(answers.map(\.exchange) == [expected], "asked for \(expected), read \(answers)")
        } catch {
            FuzzCheck.fail("the answer to a query for \(expected) does not parse: \(error)")
        }
    }

    static func autoconfig(_ bytes: [UInt8]) {
        guard let found = AutoconfigParser.parse(bytes) else { return }
        FuzzCheck.require(found.imap != nil || found.smtp != nil, "a document naming no server parsed")
        for server in [found.imap, found.smtp].compactMap({ $0 }) {
            FuzzCheck.require(!server.host.isEmpty && !server.host.contains(where: { $0.isWhitespace || $0 == "/" }),
                              "host \(server.host.debugDescription)")
            FuzzCheck.require(server.port > 0, "port 0")
        }
    }

    static func http(_ bytes: [UInt8]) {
        dechunkRoundTrip(bytes)
        guard let response = try? HTTPResponseParser.parse(bytes) else { return }
        FuzzCheck.require((100...599).contains(response.status), "status \(response.status)")
        FuzzCheck.require(response.body.count <= bytes.count, "a body of \(response.body.count) bytes from \(bytes.count)")
        for name in response.headers.keys { FuzzCheck.require(name == name.lowercased(), "header name \(name.debugDescription)") }
        // Written back as a server framing its body by length.
        var headers = response.headers
        headers["transfer-encoding"] = nil
        headers["content-length"] = String(response.body.count)
        var text = "HTTP/1.1 \(response.status) Fuzz\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        let again = Array((text + "\r\n").utf8) + response.body
        do {
            let reread = try HTTPResponseParser.parse(again)
            FuzzCheck.require(reread == HTTPResponse(status: response.status, headers: headers, body: response.body),
                              "written back, \(response) reads as \(reread)")
        } catch {
            FuzzCheck.fail("written back, \(response) does not parse: \(error)")
        }
    }

    /// The input as a chunked body, cut where `chunkRanges` cuts it, every third chunk with an extension.
    static func dechunkRoundTrip(_ bytes: [UInt8]) {
        var chunked: [UInt8] = []
        for (i, range) in FuzzCheck.chunkRanges(count: bytes.count, seed: FuzzCheck.seed(of: bytes), maxChunk: 300).enumerated() {
            chunked += Array(String(range.count, radix: 16, uppercase: i % 2 == 0).utf8)
            if i % 3 == 2 { chunked += Array(";name=\"v\"".utf8) }
            chunked += [13, 10] + bytes[range] + [13, 10]
        }
        chunked += Array("0\r\nTrailer: x\r\n\r\n".utf8)
        do {
            let body = try HTTPResponseParser.dechunk(chunked)
            FuzzCheck.require(body == bytes, "\(bytes.count) bytes chunked de-chunk to \(body.count) others")
        } catch {
            FuzzCheck.fail("\(bytes.count) bytes chunked do not de-chunk: \(error)")
        }
    }
}
