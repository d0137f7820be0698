import Foundation
import TestSupport

/// A loopback HTTP/1.1 server answering each request from `answer` (path without its query, the form body
/// as pairs), for the OAuth answers the real test server (Tools/test-server/oauth_server.py) cannot give:
/// metadata naming another issuer, a token endpoint that never answers, `slow_down` on every poll, a
/// `javascript:` verification URI. `answer` returning nil keeps the connection open without a byte until the
/// server stops (a server that hangs). Each request is read up to 64 KiB.
final class FakeOAuthHTTPServer: @unchecked Sendable {
    /// An answer: status and JSON body.
    typealias Answer = (status: Int, json: String)

    let port: UInt16
    var base: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let answer: @Sendable (String, [String: String]) -> Answer?
    private let lock = NSLock()
    private var stopped = false
    private var held: [Int32] = []
    private var paths: [String] = []

    init(_ answer: @escaping @Sendable (_ path: String, _ form: [String: String]) -> Answer?) throws {
        guard let (fd, port) = LoopbackSocket.listen(backlog: 16) else { throw TestServerError("cannot listen on 127.0.0.1") }
        listener = fd
        self.port = port
        self.answer = answer
        Thread { [self] in serve() }.start()
    }

    /// The paths requested so far, in order.
    var requested: [String] { lock.withLock { paths } }

    /// Stops accepting and closes every held connection.
    func stop() {
        let fds: [Int32] = lock.withLock {
            stopped = true
            defer { held = [] }
            return held
        }
        for fd in fds { close(fd) }
    }

    deinit {
        stop()
        close(listener)
    }

    private func serve() {
        while !lock.withLock({ stopped }) {
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) == 1 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            Thread { [self] in handle(client) }.start()
        }
    }

    private func handle(_ client: Int32) {
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        func headerEnd() -> Int? {
            guard data.count >= 4 else { return nil }
            return (0...(data.count - 4)).first { data[$0] == 13 && data[$0 + 1] == 10 && data[$0 + 2] == 13 && data[$0 + 3] == 10 }
        }
        while headerEnd() == nil, data.count < 64 * 1024 {
            let n = read(client, &buffer, buffer.count)
            guard n > 0 else { close(client); return }
            data += buffer[0..<n]
        }
        guard let end = headerEnd() else { close(client); return }
        let head = String(decoding: data[..<end], as: UTF8.self)
        let lengthLine = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        let length = lengthLine.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        while data.count < end + 4 + length, data.count < 64 * 1024 {
            let n = read(client, &buffer, buffer.count)
            guard n > 0 else { break }
            data += buffer[0..<n]
        }
        let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
        var form: [String: String] = [:]
        for pair in String(decoding: data[min(end + 4, data.count)...], as: UTF8.self).split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if kv.count == 2 { form[kv[0]] = kv[1] }
        }
        lock.withLock { paths.append(path) }
        guard let reply = answer(path, form) else {
            let keep = lock.withLock { () -> Bool in
                if stopped { return false }
                held.append(client)
                return true
            }
            if !keep { close(client) }
            return
        }
        let body = Array(reply.json.utf8)
        let response = "HTTP/1.1 \(reply.status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(response.utf8) + body
        _ = send(client, bytes, bytes.count, Int32(MSG_NOSIGNAL))
        close(client)
    }
}
