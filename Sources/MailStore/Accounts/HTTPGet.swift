import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A bounded, blocking HTTP(S) GET for discovery: at most `limit` bytes, within `timeout` seconds.
enum HTTPGet {
    private final class Outcome: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<[UInt8], DiscoveryError>?
    }

    static func fetch(_ url: URL, timeout: Double, limit: Int) throws(DiscoveryError) -> [UInt8] {
        let config = URLSessionConfiguration.ephemeral
        // URLSession's own limits (whole seconds on Linux) only back up the wait below, which is the bound.
        config.timeoutIntervalForRequest = timeout + 1
        config.timeoutIntervalForResource = timeout + 1
        config.httpCookieStorage = nil
        config.urlCache = nil
        let session = URLSession(configuration: config)
        defer { session.invalidateAndCancel() }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: url) { data, response, error in
            let r: Result<[UInt8], DiscoveryError>
            if let error {
                r = .failure((error as? URLError)?.code == .timedOut ? .timeout(timeout) : .http(error.localizedDescription))
            }
            else if let h = response as? HTTPURLResponse, !(200..<300).contains(h.statusCode) { r = .failure(.http("status \(h.statusCode)")) }
            else if let data, data.count <= limit { r = .success(Array(data)) }
            else { r = .failure(.http("more than \(limit) bytes")) }
            outcome.lock.withLock { outcome.result = r }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            throw .timeout(timeout)
        }
        switch outcome.lock.withLock({ outcome.result }) {
        case .success(let bytes): return bytes
        case .failure(let e): throw e
        case nil: throw .timeout(timeout)
        }
    }
}
