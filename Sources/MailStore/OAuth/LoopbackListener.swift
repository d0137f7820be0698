import Foundation
import SecureTransport

/// A TCP listener on 127.0.0.1 (a free port): the redirect target of a browser sign-in. Each request is read
/// (at most ``maxBytes``, ``requestSeconds``, connections side by side) and handed over with its query; the caller
/// answers it with a short page.
final class LoopbackListener {
    let fd: Int32
    let port: UInt16
    /// The most bytes of a request read.
    static let maxBytes = OAuthSignIn.maxRequestBytes

    /// One GET to the listener, open until ``answer(status:_:)``.
    final class Request {
        /// The query's parameters, form-decoded (`+` is a space; a repeated name keeps its first value).
        let query: [String: String]
        private var fd: Int32

        init(fd: Int32, query: [String: String]) {
            self.fd = fd
            self.query = query
        }

        /// Answers a plain-text `page` with `status` and closes the connection (once; later calls do nothing).
        func answer(status: Int, _ page: String) {
            guard fd >= 0 else { return }
            let reason = status == 200 ? "OK" : status == 400 ? "Bad Request" : "Bad Gateway"
            let response = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: \(page.utf8.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n" + page
            _ = response.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
            Glibc.close(fd)
            fd = -1
        }

        deinit { if fd >= 0 { Glibc.close(fd) } }
    }

    init() throws(OAuthError) {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw .unreachable("cannot open a socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) } }
        guard bound == 0, listen(s, 8) == 0,
              withUnsafeMutablePointer(to: &addr, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }) == 0
        else {
            let reason = String(cString: strerror(errno))
            Glibc.close(s)
            throw .unreachable("cannot listen on 127.0.0.1: \(reason)")
        }
        fd = s
        port = UInt16(bigEndian: addr.sin_port)
    }

    /// The most connections read at once: a connection past it pushes out the oldest.
    static let maxPending = 16
    /// The longest one connection may take to send its request: a browser sends it at once.
    static let requestSeconds = 5.0

    /// A connection whose request is being read: its socket, the bytes so far, until when it may send them.
    private struct Pending {
        let fd: Int32
        var bytes: [UInt8]
        let deadline: Deadline
    }

    /// The connections being read, kept from one ``nextRequest(deadline:)`` to the next.
    private var pending: [Pending] = []
    /// Connections whose request was read whole, not handed over yet (oldest first).
    private var complete: [(fd: Int32, bytes: [UInt8])] = []

    /// Closes the listener and every connection not answered.
    func close() {
        for p in pending { Glibc.close(p.fd) }
        for c in complete { Glibc.close(c.fd) }
        (pending, complete) = ([], [])
        Glibc.close(fd)
    }

    /// Waits (until `deadline`) for the next GET and returns it unanswered; anything else is answered 400 and
    /// the wait goes on. Connections are read side by side (at most ``maxPending``, the oldest dropped past it),
    /// each for at most ``requestSeconds`` and never past `deadline`: a client that connects and sends nothing,
    /// or a byte now and then, neither holds the sign-in past its time nor keeps the browser's redirect out.
    func nextRequest(deadline: Deadline) throws(OAuthError) -> Request {
        while true {
            // On the monotonic clock: a wall clock stepped back does not stretch the wait.
            guard !deadline.hasPassed else { throw .timedOut("no answer from the browser within the time allowed") }
            if !complete.isEmpty {
                let (c, bytes) = complete.removeFirst()
                let line = String(decoding: bytes.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
                let parts = line.split(separator: " ")
                if parts.count >= 2, parts[0] == "GET" { return Request(fd: c, query: LoopbackListener.formDecode(query: String(parts[1]))) }
                Request(fd: c, query: [:]).answer(status: 400, "Not a sign-in redirect.")
                continue
            }
            // Connections past their time are dropped unanswered.
            pending.removeAll { p in
                guard p.deadline.hasPassed else { return false }
                Glibc.close(p.fd)
                return true
            }
            let wake = pending.map(\.deadline).reduce(Deadline.earlier(deadline, Deadline(secondsFromNow: 1))) { Deadline.earlier($0, $1) }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] + pending.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), Int32(wake.remainingSeconds * 1000) + 1) > 0 else { continue }
            var gone: Set<Int32> = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            for (i, p) in pending.enumerated() where fds[i + 1].revents != 0 {
                let n = read(p.fd, &buffer, min(buffer.count, LoopbackListener.maxBytes - p.bytes.count))
                guard n > 0 else {
                    Glibc.close(p.fd)
                    gone.insert(p.fd)
                    continue
                }
                pending[i].bytes += buffer[0..<n]
                if pending[i].bytes.containsHeaderEnd || pending[i].bytes.count >= LoopbackListener.maxBytes {
                    complete.append((p.fd, pending[i].bytes))
                    gone.insert(p.fd)
                }
            }
            pending.removeAll { gone.contains($0.fd) }
            if fds[0].revents != 0 { accept(until: deadline) }
        }
    }

    /// Takes one waiting connection into `pending` (the oldest is dropped when ``maxPending`` are read already).
    private func accept(until deadline: Deadline) {
        let c = Glibc.accept(fd, nil, nil)
        guard c >= 0 else { return }
        if pending.count >= LoopbackListener.maxPending {
            Glibc.close(pending.removeFirst().fd)
        }
        pending.append(Pending(fd: c, bytes: [], deadline: Deadline.earlier(deadline, Deadline(secondsFromNow: LoopbackListener.requestSeconds))))
    }

    /// The parameters of `target`'s query (`/path?a=b&c=d`), decoded as `application/x-www-form-urlencoded`
    /// (HTML 4.01 17.13.4: `+` is a space, then percent-decoding), which is how redirects carry them (RFC 6749 4.1.2).
    static func formDecode(query target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(kv[0])
            if result[name] == nil { result[name] = kv.count > 1 ? decode(kv[1]) : "" }
        }
        return result
    }
}

extension Array where Element == UInt8 {
    fileprivate var containsHeaderEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
