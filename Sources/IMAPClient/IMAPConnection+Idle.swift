import IMAPProtocol
import SecureTransport

extension IMAPConnection {
    /// Waits for changes with IDLE (RFC 2177): sends IDLE, waits for the server's `+`, then
    /// passes every untagged response to `onEvent` until it returns false or `timeoutSeconds`
    /// pass (use less than the server's 29-minute limit), then sends DONE and reads the
    /// completion. Responses that arrive before `+` or after DONE go to `onEvent` too.
    ///
    /// While waiting, `tick` is called every `tickSeconds` (at most every 0.1 s) without leaving IDLE, whether responses
    /// arrive or not: it may do other work (on other connections) and returns true to end the IDLE now (e.g. to stop, or
    /// once changes the caller gathered have settled). The wait for the server after a tick starts afresh, so a long
    /// tick is not taken for a silent server. `timeoutSeconds` holds however many responses arrive.
    ///
    /// Returns whether any untagged response arrived. Throws ``IMAPClientError/transport(_:)`` (timeout)
    /// only when the server stops answering (DONE unanswered within the endpoint's timeout).
    @discardableResult
    package func idle(timeoutSeconds: Double, tickSeconds: Double = .infinity, tick: () -> Bool = { false },
                      onEvent: (UntaggedResponse) -> Bool) throws(IMAPClientError) -> Bool {
        var anyEvent = false
        var wantsMore = true
        func deliver(_ response: UntaggedResponse) -> Bool {
            anyEvent = true
            if !onEvent(response) { wantsMore = false }
            return true
        }
        let tag = try start(.idle, name: "IDLE", untagged: deliver).tag
        // The wait itself is not a stall: the command's deadline starts after it.
        beginCommand("IDLE", extraSeconds: max(0, timeoutSeconds))
        if let refusal = try awaitContinuation(tag: tag, untagged: deliver) {
            try requireOK(refusal, name: "IDLE")
            return anyEvent
        }
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        let slice = max(0.1, tickSeconds)
        var nextTick = Deadline(secondsFromNow: slice)
        // The timeout and the ticks are kept however busy the server is: a server sending untagged responses without end
        // (the same EXISTS again and again, which the caller ignores) had kept the IDLE from ending and the tick from
        // running (nor could the caller stop).
        while wantsMore && !deadline.hasPassed {
            if nextTick.hasPassed {
                if tick() { break }
                nextTick = Deadline(secondsFromNow: slice)
                // The tick may have taken a while: the server's time to answer counts from now.
                transport.setDeadline(secondsFromNow: endpoint.commandTimeout + deadline.remainingSeconds)
                continue
            }
            let wait = Deadline(instant: min(deadline.instant, nextTick.instant))
            guard let response = try nextResponse(until: wait) else { continue }
            switch response {
            case .untagged(let untagged):
                try dispatch(untagged, to: deliver)
            case .tagged(let t, let status, let code, let text):
                guard t == tag else { throw fail(.protocolError("a completion tagged \(t) arrived during IDLE")) }
                try requireOK(Completion(status: status, code: code, text: text), name: "IDLE")
                return anyEvent
            case .continuation:
                throw fail(.protocolError("the server sent a second continuation during IDLE"))
            }
        }
        try send(try encode(.done, tag: tag, name: "DONE").flatMap { $0 }, traced: true)
        try requireOK(try awaitCompletion(tag: tag, name: "IDLE", untagged: deliver), name: "IDLE")
        return anyEvent
    }
}
