import IMAPProtocol

extension IMAPConnection {
    /// Exchanges identification (`ID`, RFC 2971): sends `fields` (none: `ID NIL`) and returns
    /// the server's fields, or nil without sending anything when the server does not advertise ID.
    package func id(_ fields: [String: String]) throws(IMAPClientError) -> [String: String?]? {
        guard has("ID") else { return nil }
        var serverFields: [String: String?] = [:]
        try run(.id(fields.isEmpty ? nil : fields.mapValues { Optional($0) }), name: "ID") { response in
            guard case .id(let received) = response else { return false }
            serverFields = received
            return true
        }
        return serverFields
    }

    /// Turns on extensions such as `CONDSTORE` and `QRESYNC` (`ENABLE`, RFC 5161) and returns the
    /// ones the server enabled (uppercased); returns an empty set without sending anything when
    /// the server does not advertise ENABLE.
    package func enable(_ extensions: [String]) throws(IMAPClientError) -> Set<String> {
        guard has("ENABLE"), !extensions.isEmpty else { return [] }
        var enabled: Set<String> = []
        try run(.enable(extensions), name: "ENABLE") { response in
            guard case .enabled(let names) = response else { return false }
            enabled.formUnion(names.map { $0.uppercased() })
            return true
        }
        enabledExtensions.formUnion(enabled)
        return enabled
    }

    /// `NOOP`: returns every untagged response it brought (new messages, expunges, flag changes),
    /// at most ``CommandLimits/maxCollected`` of them.
    package func noop() throws(IMAPClientError) -> [UntaggedResponse] {
        var responses: [UntaggedResponse] = []
        try run(.noop, name: "NOOP") { response throws(IMAPClientError) in
            responses.append(response)
            try self.checkCollected(responses.count)
            return true
        }
        return responses
    }

    /// Says `LOGOUT` when the connection is still usable and closes it; never throws. Later
    /// calls throw ``IMAPClientError/transport(_:)`` (connection closed).
    package func logout() {
        if failure.error == nil { _ = try? execute(.logout, name: "LOGOUT") }
        _ = fail(.transport(.connectionClosed("the connection was logged out")))
    }

    /// Closes the connection without a word to the server (no DONE, no LOGOUT), e.g. from an IDLE's tick: for one
    /// whose server stopped answering (another connection to it waited out its timeout), where either would only wait
    /// out the timeout again. Later calls throw ``IMAPClientError/transport(_:)`` (connection closed, `reason`).
    package func abandon(_ reason: String) {
        _ = fail(.transport(.connectionClosed(reason)))
    }
}
