/// A streaming reader of IMAP server responses.
///
/// Feed bytes as they arrive, in chunks of any size, and call ``next()`` until it returns nil:
/// each call returns one complete response as soon as all of its bytes, including every
/// literal (`{n}`, `{n+}`, `~{n}`) it announces, have been fed.
///
/// ```swift
/// var parser = IMAPResponseParser()
/// parser.feed(chunk)
/// while let response = try parser.next() { handle(response) }
/// ```
///
/// The parser is bounded by ``Limits``: a literal larger than `maxLiteralSize` is refused when
/// its announcement is read, before its data is buffered; lines, nesting depth and whole
/// responses are capped too. Nothing a server sends can make it trap.
///
/// After ``next()`` throws, the connection must be considered broken: the position of the
/// next response is unknown. The parser drops its buffer, ignores further input and throws
/// the same error from every later call.
package struct IMAPResponseParser: Sendable {
    /// The bounds this parser enforces.
    package let limits: Limits

    /// Bytes fed and not yet returned as responses (from `start`).
    private var buffer: [UInt8] = []
    /// Index in `buffer` of the first byte of the response being framed.
    private var start = 0
    /// Index of the first byte of the current line of that response.
    private var lineStart = 0
    /// Index of the next byte to search for a line feed.
    private var scan = 0
    /// End index of the literal whose bytes are awaited, if any.
    private var literalEnd: Int?
    /// Non-literal bytes of the current response in its completed lines.
    private var nonLiteralBytes = 0
    /// Stream offset of `buffer[0]`.
    private var discarded = 0
    /// The error that broke the stream, if any.
    private var failure: IMAPParseError?

    /// A parser with the given limits.
    package init(limits: Limits) {
        self.limits = limits
    }

    /// A parser with the given limits (see ``Limits``); `IMAPResponseParser()` uses the defaults.
    package init(maxLiteralSize: Int = 64 << 20, maxLineLength: Int = 1 << 20, maxNestingDepth: Int = 64) {
        self.init(limits: Limits(maxLiteralSize: maxLiteralSize, maxLineLength: maxLineLength, maxNestingDepth: maxNestingDepth))
    }

    /// Bytes fed that are not yet part of a returned response.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Whether an earlier error broke the stream.
    package var isBroken: Bool { failure != nil }

    /// Appends bytes received from the server. Ignored once the stream is broken.
    package mutating func feed(_ bytes: some Collection<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete response, or nil when more bytes are needed.
    ///
    /// Throws when the bytes break a limit or the grammar; the stream is then broken and
    /// every later call throws the same error.
    package mutating func next() throws(IMAPParseError) -> IMAPResponse? {
        if let failure { throw failure }
        do throws(IMAPParseError) {
            return try frameNext()
        } catch {
            failure = error
            buffer = []
            start = 0
            lineStart = 0
            scan = 0
            literalEnd = nil
            throw error
        }
    }

    /// Finds the end of the next response and parses it, or returns nil if it is incomplete.
    private mutating func frameNext() throws(IMAPParseError) -> IMAPResponse? {
        while true {
            if let end = literalEnd {
                guard buffer.count >= end else { return nil }
                literalEnd = nil
                lineStart = end
                scan = end
            }
            let count = buffer.count
            var i = scan
            while i < count, buffer[i] != IMAPByte.lf { i += 1 }
            guard i < count else {
                scan = count
                if nonLiteralBytes + (count - lineStart) > limits.maxLineLength {
                    throw .lineTooLong(limit: limits.maxLineLength)
                }
                return nil
            }
            let lineEnd = i + 1
            nonLiteralBytes += lineEnd - lineStart
            if nonLiteralBytes > limits.maxLineLength { throw .lineTooLong(limit: limits.maxLineLength) }
            var contentEnd = i
            if contentEnd > lineStart, buffer[contentEnd - 1] == IMAPByte.cr { contentEnd -= 1 }

            if lineStart == start, contentEnd == start {
                // A stray empty line between responses: skip it.
                finishResponse(at: lineEnd)
                continue
            }
            if buffer[start] != IMAPByte.plus, let size = try literalAnnouncement(endingAt: contentEnd) {
                guard size <= UInt64(limits.maxLiteralSize) else {
                    throw .literalTooLarge(size: size, limit: limits.maxLiteralSize)
                }
                let total = UInt64(lineEnd - start) + size
                guard total <= UInt64(limits.maxResponseSize) else {
                    throw .responseTooLarge(size: total, limit: limits.maxResponseSize)
                }
                literalEnd = lineEnd + Int(size)
                continue
            }
            let responseStart = start
            var reader = ResponseReader(bytes: buffer, start: responseStart, end: lineEnd,
                                        streamOffset: discarded, maxDepth: limits.maxNestingDepth)
            let response = try reader.readResponse()
            finishResponse(at: lineEnd)
            return response
        }
    }

    /// Starts the next response at `end`, discarding consumed bytes when worthwhile.
    private mutating func finishResponse(at end: Int) {
        start = end
        lineStart = end
        scan = end
        nonLiteralBytes = 0
        if start == buffer.count {
            discarded += start
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        } else if start >= 1 << 16, start * 2 >= buffer.count {
            discarded += start
            buffer.removeSubrange(0..<start)
            start = 0
        } else {
            return
        }
        lineStart = 0
        scan = 0
    }

    /// The size a line's trailing `{n}`, `{n+}` or `~{n}` announces, or nil if it has none.
    private func literalAnnouncement(endingAt contentEnd: Int) throws(IMAPParseError) -> UInt64? {
        var j = contentEnd - 1
        guard j > lineStart, buffer[j] == IMAPByte.closeBrace else { return nil }
        j -= 1
        if buffer[j] == IMAPByte.plus { j -= 1 }
        let digitsEnd = j + 1
        while j >= lineStart, IMAPByte.isDigit(buffer[j]) { j -= 1 }
        let digitsStart = j + 1
        guard digitsStart < digitsEnd, j >= lineStart, buffer[j] == IMAPByte.openBrace else { return nil }
        var size: UInt64 = 0
        for k in digitsStart..<digitsEnd {
            let (m, o1) = size.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(buffer[k] - IMAPByte.zero))
            if o1 || o2 { throw .malformed("literal size does not fit in 64 bits", at: discarded + digitsStart) }
            size = a
        }
        return size
    }
}
