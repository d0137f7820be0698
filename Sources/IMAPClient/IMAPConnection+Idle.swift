import IMAPProtocol
import SecureTransport

extension IMAPConnection {
    /// Waits for changes with IDLE (RFC 2177): sends IDLE, waits for the server's `+`, then
    /// passes every untagged response to `onEvent` until it returns false or `timeoutSeconds`
    /// pass (use less than the server's 29-minute limit), then sends DONE and reads the
    /// completion. Responses that arrive before `+` or after DONE go to `onEvent` too.
    ///
    /// Returns whether any untagged response arrived. Throws ``IMAPClientError/transport(_:)`` (timeout)
    /// only when the server stops answering (DONE unanswered within the endpoint's timeout).
    @discardableResult
    package func idle(timeoutSeconds: Double, onEvent: (UntaggedResponse) -> Bool) throws(IMAPClientError) -> Bool {
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
        while wantsMore, let response = try nextResponse(until: deadline) {
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
