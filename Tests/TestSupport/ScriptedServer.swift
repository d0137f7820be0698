import Foundation

/// A loopback peer that plays a fixed script (IMAP, SMTP, ...) to one client, for the failure modes a
/// well-behaved server never shows (no STARTTLS, injected bytes, garbage, silence, BYE, floods,
/// trickling). A fake server is the right tool there: no real server can be made to misbehave on cue.
package final class ScriptedServer: @unchecked Sendable {
    /// One step of the script.
    package enum Step: Sendable {
        /// Send these bytes (lines end with CRLF as written).
        case send(String)
        /// Read one line from the client and remember it.
        case readLine
        /// Wait until the client closes the connection.
        case waitForClose
        /// Send these bytes one at a time, `interval` seconds apart (a server that trickles its
        /// answer); stops quietly once the client has gone.
        case trickle(String, interval: Double)
    }

    /// The port it listens on.
    package let port: UInt16
    private let listener: Int32
    private var task: BackgroundTask?
    private let lock = NSLock()
    private var received: [String] = []

    /// Listens on 127.0.0.1 and plays `steps` to the first client.
    package init(_ steps: [Step]) throws {
        guard let (fd, port) = LoopbackSocket.listen(backlog: 1) else { throw ScriptError("cannot listen on 127.0.0.1") }
        listener = fd
        self.port = port
        task = BackgroundTask { [self] in try self.play(steps) }
    }

    deinit { close(listener) }

    /// The lines the client sent, once the script has ended (waiting up to `seconds`).
    package func clientLines(within seconds: Double = 30) throws -> [String] {
        try task?.wait(seconds: seconds)
        return lock.withLock { received }
    }

    private func play(_ steps: [Step]) throws {
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 30_000) == 1 else { throw ScriptError("no client connected within 30 seconds") }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { throw ScriptError("accept failed") }
        defer { close(client) }
        var pending: [UInt8] = []
        for step in steps {
            switch step {
            case .send(let text):
                let bytes = Array(text.utf8)
                guard send(client, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw ScriptError("send failed") }
            case .readLine:
                while !pending.contains(0x0A) {
                    guard let chunk = readChunk(client) else { throw ScriptError("the client closed before sending a line") }
                    pending += chunk
                }
                let end = pending.firstIndex(of: 0x0A)!
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .newlines)
                pending.removeSubrange(...end)
                lock.withLock { received.append(line) }
            case .trickle(let text, let interval):
                for byte in Array(text.utf8) {
                    guard send(client, [byte], 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
                    usleep(useconds_t(interval * 1_000_000))
                }
            case .waitForClose:
                while let chunk = readChunk(client) {
                    lock.withLock { received.append(String(decoding: chunk, as: UTF8.self)) }
                }
            }
        }
    }

    /// Bytes from `fd`, or nil at the end of the stream.
    private func readChunk(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[..<n]) : nil
    }
}

/// A scripted server that could not play its part.
package struct ScriptError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
