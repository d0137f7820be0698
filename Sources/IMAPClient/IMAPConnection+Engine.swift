import IMAPProtocol
import SecureTransport

/// Handles an untagged response that arrives during a command; returns false to pass it on
/// to ``IMAPConnection/onUnsolicited``.
typealias UntaggedHandler = (UntaggedResponse) throws(IMAPClientError) -> Bool

/// Answers a server continuation request after a command was sent whole (an AUTHENTICATE
/// challenge) with the line to send back, without its CRLF.
typealias ContinuationHandler = (String) throws(IMAPClientError) -> String

extension IMAPConnection {
    /// Bytes asked for by each read.
    static let readChunkSize = 64 * 1024

    /// Sends `command`, reads responses up to its completion and throws
    /// ``IMAPClientError/commandFailed(command:status:text:)`` unless it is OK.
    @discardableResult
    func run(_ command: IMAPCommand, name: String, untagged: UntaggedHandler = { _ in false }) throws(IMAPClientError) -> Completion {
        try requireOK(try execute(command, name: name, untagged: untagged), name: name)
    }

    /// The response codes of a NO that RFC 5530 says is temporary: `UNAVAILABLE` and `INUSE`.
    static let temporaryCodes: Set<String> = ["UNAVAILABLE", "INUSE"]

    /// `temporarilyUnavailable` for a NO of `command` whose code is one of `temporaryCodes`, else nil.
    static func temporaryFailure(_ completion: Completion, _ command: String) -> IMAPClientError? {
        guard completion.status == .no, case .other(let code, _)? = completion.code, temporaryCodes.contains(code) else { return nil }
        return .temporarilyUnavailable(command: command, code: code, text: completion.text)
    }

    /// `completion` when it is OK; else throws ``IMAPClientError/commandFailed(command:status:text:)`` (a NO's
    /// `NONEXISTENT` code kept as `[NONEXISTENT] ` before its text), or
    /// ``IMAPClientError/temporarilyUnavailable(command:code:text:)`` for a NO whose code says it is temporary.
    @discardableResult
    func requireOK(_ completion: Completion, name: String) throws(IMAPClientError) -> Completion {
        guard completion.status == .ok else {
            // A NO's `[NONEXISTENT]` (RFC 5530) is kept in the text: what a caller tells a mailbox that is gone by.
            let text = completion.status == .no && completion.code == .nonExistent ? "[NONEXISTENT] " + completion.text : completion.text
            throw IMAPConnection.temporaryFailure(completion, name)
                ?? .commandFailed(command: name, status: completion.status.rawValue, text: text)
        }
        return completion
    }

    /// Sends `command` (named `name` in errors, traced as `redacted` instead of its bytes when
    /// given) and reads responses up to its completion, whatever its status.
    func execute(_ command: IMAPCommand, name: String, redacted: String? = nil,
                 continuation: ContinuationHandler? = nil,
                 untagged: UntaggedHandler = { _ in false }) throws(IMAPClientError) -> Completion {
        let (tag, refusal) = try start(command, name: name, redacted: redacted, untagged: untagged)
        if let refusal { return refusal }
        return try awaitCompletion(tag: tag, name: name, continuation: continuation, untagged: untagged)
    }

    /// Sends `command` with a new tag and returns the tag. Literals wait for the server's `+`
    /// unless LITERAL+ allows otherwise; when the server completes the command instead
    /// (refusing a literal) that completion is returned too.
    func start(_ command: IMAPCommand, name: String, redacted: String? = nil,
               untagged: UntaggedHandler) throws(IMAPClientError) -> (tag: String, refusal: Completion?) {
        try ensureUsable()
        beginCommand(name)
        let tag = makeTag()
        let parts = try encode(command, tag: tag, name: name, redacted: redacted)
        if let redacted { traceLine("C: \(tag) \(redacted)") }
        for (index, part) in parts.enumerated() {
            if index > 0, let refusal = try awaitContinuation(tag: tag, untagged: untagged) {
                return (tag, completed(refusal))
            }
            try send(part, traced: redacted == nil)
        }
        return (tag, nil)
    }

    /// The parts of `command` with `tag`; an argument that cannot be sent fails the command
    /// without touching the connection (and without quoting arguments that are `redacted`).
    func encode(_ command: IMAPCommand, tag: String, name: String, redacted: String? = nil) throws(IMAPClientError) -> [[UInt8]] {
        do throws(IMAPEncodingError) {
            return try command.encode(tag: tag, literalMode: literalMode)
        } catch {
            throw .commandFailed(command: name, status: "NOT SENT", text: redacted == nil ? error.description : "invalid arguments")
        }
    }

    /// Reads responses until the one tagged `tag`, answering continuation requests with
    /// `continuation` and routing untagged responses.
    func awaitCompletion(tag: String, name: String, continuation: ContinuationHandler? = nil,
                         untagged: UntaggedHandler) throws(IMAPClientError) -> Completion {
        while true {
            switch try nextResponse() {
            case .tagged(let t, let status, let code, let text):
                guard t == tag else { throw fail(.protocolError("a completion tagged \(t) arrived while waiting for \(tag)")) }
                return completed(Completion(status: status, code: code, text: text))
            case .untagged(let response):
                try dispatch(response, to: untagged)
            case .continuation(let text):
                guard let continuation else { throw fail(.protocolError("the server asked for more data during \(name)")) }
                let reply = try continuation(text)
                traceLine("C: <redacted>")
                try send(Array((reply + "\r\n").utf8), traced: false)
            }
        }
    }

    /// Reads responses until the server's `+`; returns nil then, or the completion tagged
    /// `tag` when the server ends the command instead.
    func awaitContinuation(tag: String, untagged: UntaggedHandler) throws(IMAPClientError) -> Completion? {
        while true {
            switch try nextResponse() {
            case .continuation:
                return nil
            case .untagged(let response):
                try dispatch(response, to: untagged)
            case .tagged(let t, let status, let code, let text):
                guard t == tag else { throw fail(.protocolError("a completion tagged \(t) arrived while waiting for \(tag)")) }
                return Completion(status: status, code: code, text: text)
            }
        }
    }

    /// Notes what every untagged response may tell (capabilities, BYE), then gives it to
    /// `handler` or, when the handler does not take it, to ``onUnsolicited``.
    func dispatch(_ response: UntaggedResponse, to handler: UntaggedHandler) throws(IMAPClientError) {
        commandResponses += 1
        if commandResponses > limits.maxResponses {
            throw fail(.responseLimitExceeded(command: commandName, limit: "\(limits.maxResponses) untagged responses"))
        }
        switch response {
        case .capability(let names): capabilities = Set(names.map { $0.uppercased() })
        case .condition(.ok, .capability(let names)?, _): capabilities = Set(names.map { $0.uppercased() })
        case .condition(.bye, _, let text): byeText = text
        case .exists(let count):
            // New mail has UIDs from UIDNEXT up: searches are no longer clamped below it.
            if count > selectedExists { selectedUIDNext = nil }
            selectedExists = count
        default: break
        }
        if try handler(response) { return }
        onUnsolicited?(response)
    }

    /// The next response, waiting at most ``ServerEndpoint/timeoutSeconds`` for each read.
    func nextResponse() throws(IMAPClientError) -> IMAPResponse {
        guard let response = try nextResponse(until: nil) else {
            throw fail(.transport(.timeout(seconds: endpoint.timeoutSeconds)))
        }
        return response
    }

    /// The next response, or nil when `deadline` passed before it was complete (the
    /// connection stays usable). Without a deadline each read may wait the endpoint's timeout.
    func nextResponse(until deadline: Deadline?) throws(IMAPClientError) -> IMAPResponse? {
        try ensureUsable()
        while true {
            do throws(IMAPParseError) {
                if let response = try parser.next() { return response }
            } catch {
                throw fail(.protocolError(error.description))
            }
            let chunk: [UInt8]?
            do throws(TransportError) {
                chunk = try transport.read(maxCount: IMAPConnection.readChunkSize,
                                           timeoutSeconds: deadline?.remainingSeconds ?? endpoint.timeoutSeconds)
            } catch {
                throw fail(IMAPClientError(error, command: commandName))
            }
            guard let chunk else {
                if deadline != nil { return nil }
                throw fail(.transport(.timeout(seconds: endpoint.timeoutSeconds)))
            }
            guard !chunk.isEmpty else {
                throw fail(.transport(.connectionClosed(byeText.map { "the server said BYE: \($0)" } ?? "the server closed the connection")))
            }
            commandBytes += chunk.count
            if commandBytes > limits.maxBytes {
                throw fail(.responseLimitExceeded(command: commandName, limit: "\(limits.maxBytes) bytes"))
            }
            transport.extendDeadline(bySeconds: Double(chunk.count) / Double(limits.deadlineBytesPerSecond))
            if trace != nil {
                for line in incomingTrace.lines(in: chunk) { traceLine(line) }
            }
            parser.feed(chunk)
        }
    }

    /// Sends `bytes` (traced line by line when `traced`).
    func send(_ bytes: [UInt8], traced: Bool) throws(IMAPClientError) {
        try ensureUsable()
        if traced, trace != nil {
            var tracer = LineTracer(prefix: "C: ")
            for line in tracer.lines(in: bytes) { traceLine(line) }
        }
        do throws(TransportError) {
            try transport.write(bytes)
        } catch {
            throw fail(IMAPClientError(error, command: commandName))
        }
    }

    /// Starts the bounds of a new command: its deadline (``ServerEndpoint/commandTimeout`` plus
    /// `extraSeconds`, from now) and its response counts.
    func beginCommand(_ name: String, extraSeconds: Double = 0) {
        commandName = name
        // A message added to the selected mailbox gets a UID from UIDNEXT up.
        if ["APPEND", "UID COPY", "UID MOVE"].contains(name) { selectedUIDNext = nil }
        commandResponses = 0
        commandBytes = 0
        transport.setDeadline(secondsFromNow: endpoint.commandTimeout + extraSeconds)
    }

    /// Throws ``IMAPClientError/responseLimitExceeded(command:limit:)`` (dropping the connection)
    /// when a command has collected more than `limit` items (``CommandLimits/maxCollected`` by default).
    func checkCollected(_ count: Int, limit: Int? = nil, _ what: String = "kept responses") throws(IMAPClientError) {
        let limit = limit ?? limits.maxCollected
        if count > limit { throw fail(.responseLimitExceeded(command: commandName, limit: "\(limit) \(what)")) }
    }

    /// A new command tag: A1, A2, ...
    func makeTag() -> String {
        defer { nextTagNumber += 1 }
        return "A\(nextTagNumber)"
    }

    /// How literals go out: without waiting when LITERAL+ (or LITERAL- for small ones) is advertised.
    var literalMode: LiteralMode {
        if has("LITERAL+") { return .nonSynchronizing }
        if has("LITERAL-") { return .nonSynchronizingUpTo4096 }
        return .synchronizing
    }

    /// Throws the error that made the connection unusable, if any.
    func ensureUsable() throws(IMAPClientError) {
        try failure.check()
    }

    /// Marks the connection unusable with `error` (the first error wins), closes it and returns the error to throw.
    func fail(_ error: IMAPClientError) -> IMAPClientError {
        failure.record(error, closing: transport)
    }

    /// Passes a line to the trace, if any.
    func traceLine(_ line: String) {
        trace?(line)
    }

    /// Takes what a completion tells every command (new capabilities) and returns it.
    private func completed(_ completion: Completion) -> Completion {
        if case .capability(let names)? = completion.code { capabilities = Set(names.map { $0.uppercased() }) }
        return completion
    }
}
