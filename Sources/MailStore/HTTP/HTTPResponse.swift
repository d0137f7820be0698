/// An HTTP response read whole: status code, headers (names lowercased) and body (de-chunked).
struct HTTPResponse: Sendable, Equatable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
}
