import IMAPProtocol

extension IMAPConnection {
    /// The prefix of the user's first personal namespace (`NAMESPACE`, RFC 2342), e.g. `INBOX.` or `Mail/`; nil when
    /// the server does not advertise NAMESPACE, refuses the command, or names an empty prefix (folders at the top
    /// level). Asked once a connection (the answer kept); a connection failure throws.
    package func personalNamespacePrefix() throws(IMAPClientError) -> String? {
        if let asked = askedNamespacePrefix { return asked }
        guard has("NAMESPACE") else {
            askedNamespacePrefix = .some(nil)
            return nil
        }
        var prefix: String?
        do {
            try run(.namespace, name: "NAMESPACE") { response in
                guard case .namespace(let namespaces) = response else { return false }
                if prefix == nil, let first = namespaces.personal.first, !first.prefix.raw.isEmpty {
                    prefix = first.prefix.name
                }
                return true
            }
        } catch .commandFailed {
            prefix = nil
        } catch .temporarilyUnavailable {
            // Not kept: asked again next time.
            return nil
        }
        askedNamespacePrefix = .some(prefix)
        return prefix
    }
}
