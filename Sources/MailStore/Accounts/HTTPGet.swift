import SyncCore

/// A bounded, blocking HTTP(S) GET for discovery: at most `limit` bytes (refused as soon as more arrive),
/// within `timeout` seconds in all, following up to 5 redirects; https with the certificate verified,
/// plain http only to a loopback address (``HTTPClient``).
enum HTTPGet {
    static let maxRedirects = 5

    static func fetch(_ url: String, timeout: Double, limit: Int) throws(DiscoveryError) -> [UInt8] {
        // The headers come on top of the body's limit.
        let client = HTTPClient(timeoutSeconds: timeout, deadlineSeconds: timeout, maxResponseBytes: limit + 64 * 1024,
                                maxRedirects: maxRedirects, accept: "text/xml, application/xml")
        let response: HTTPResponse
        do {
            response = try client.get(url)
        } catch {
            switch error {
            case .timeout: throw .timeout(timeout)
            case .tooLarge: throw .http("more than \(limit) bytes")
            default: throw .http("\(error)")
            }
        }
        guard (200..<300).contains(response.status) else { throw .http("status \(response.status)") }
        guard response.body.count <= limit else { throw .http("more than \(limit) bytes") }
        return response.body
    }
}
