import SecureTransport

extension SMTPConnection {
    /// Bytes asked for by each read.
    static let readChunkSize = 16 * 1024
    /// Message bytes that extend the deadline of sending a message by one second.
    static let deadlineBytesPerSecond = 256 * 1024

    /// Sends `line` (CRLF added; traced as `redacted` instead when given) and reads the reply to `stage`.
    /// Bytes the server sent before the command (commands go one at a time, so a reply nobody asked for)
    /// fail the connection: the command would take that reply for its own.
    func command(_ line: String, stage: SMTPStage, redacted: String? = nil) throws(SMTPClientError) -> SMTPReply {
        try ensureUsable()
        let unasked = parser.bufferedByteCount
        guard unasked == 0 else {
            throw fail(.protocolError("the server sent \(unasked) bytes nobody asked for (an extra reply) before \(stage)"))
        }
        try sendLine(line, redacted: redacted)
        return try readReply(at: stage)
    }

    /// Sends `line` with CRLF, traced as `redacted` instead of its text when given. The command and
    /// its reply must complete within ``ServerEndpoint/commandTimeout``, however the bytes trickle.
    func sendLine(_ line: String, redacted: String? = nil) throws(SMTPClientError) {
        transport.setDeadline(secondsFromNow: endpoint.commandTimeout)
        traceLine("C: " + (redacted ?? line))
        try write(Array((line + "\r\n").utf8))
    }

    /// Sends `bytes` as they are (not traced).
    func write(_ bytes: [UInt8]) throws(SMTPClientError) {
        try ensureUsable()
        do throws(TransportError) {
            try transport.write(bytes)
        } catch {
            throw fail(.transport(error))
        }
    }

    /// The next reply, waiting at most ``ServerEndpoint/timeoutSeconds`` for each read. A 421
    /// (the server is closing the connection) fails the connection as a temporary failure at `stage`.
    func readReply(at stage: SMTPStage) throws(SMTPClientError) -> SMTPReply {
        try ensureUsable()
        while true {
            let parsed: SMTPReply?
            do throws(SMTPReplyParseError) {
                parsed = try parser.next()
            } catch {
                throw fail(.protocolError(error.description))
            }
            if let reply = parsed {
                if reply.code == 421 { throw fail(.temporaryFailure(stage: stage, reply: reply)) }
                return reply
            }
            let chunk: [UInt8]?
            do throws(TransportError) {
                chunk = try transport.read(maxCount: SMTPConnection.readChunkSize)
            } catch {
                throw fail(.transport(error))
            }
            guard let chunk else { throw fail(.transport(.timeout(seconds: endpoint.timeoutSeconds))) }
            guard !chunk.isEmpty else { throw fail(.transport(.connectionClosed("the server closed the connection"))) }
            if trace != nil {
                for line in incomingTrace.lines(in: chunk) { traceLine(line) }
            }
            parser.feed(chunk)
        }
    }

    /// Sends `line` and returns the reply when it is 2xx (or 3xx when `intermediate`); a 4xx or
    /// 5xx throws ``SMTPClientError/temporaryFailure(stage:reply:)`` or
    /// ``SMTPClientError/permanentFailure(stage:reply:)``.
    @discardableResult
    func run(_ line: String, stage: SMTPStage, intermediate: Bool = false) throws(SMTPClientError) -> SMTPReply {
        try require(try command(line, stage: stage), stage: stage, intermediate: intermediate)
    }

    /// `reply` when it is 2xx (or 3xx when `intermediate`), else the refusal at `stage` as an error.
    @discardableResult
    func require(_ reply: SMTPReply, stage: SMTPStage, intermediate: Bool = false) throws(SMTPClientError) -> SMTPReply {
        if intermediate ? reply.isPositiveIntermediate : reply.isPositiveCompletion { return reply }
        if reply.isTransientFailure { throw .temporaryFailure(stage: stage, reply: reply) }
        if reply.isPermanentFailure { throw .permanentFailure(stage: stage, reply: reply) }
        throw fail(.protocolError("unexpected reply to \(stage): \(reply)"))
    }

    /// Throws the error that made the connection unusable, if any.
    func ensureUsable() throws(SMTPClientError) {
        try failure.check()
    }

    /// Marks the connection unusable with `error` (the first error wins), closes it and returns the error to throw.
    func fail(_ error: SMTPClientError) -> SMTPClientError {
        failure.record(error, closing: transport)
    }

    /// Passes a line to the trace, if any.
    func traceLine(_ line: String) {
        trace?(line)
    }
}
