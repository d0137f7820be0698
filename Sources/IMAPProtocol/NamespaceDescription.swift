/// One namespace: a name prefix and its hierarchy delimiter.
public struct NamespaceDescription: Hashable, Sendable {
    /// The prefix, e.g. `""` or `INBOX.`.
    public var prefix: MailboxName
    /// The hierarchy delimiter, nil for `NIL`.
    public var delimiter: String?
    /// Extension data after the delimiter, kept generic.
    public var extensions: [IMAPValue]

    /// A namespace with the given parts.
    public init(prefix: MailboxName, delimiter: String?, extensions: [IMAPValue] = []) {
        self.prefix = prefix
        self.delimiter = delimiter
        self.extensions = extensions
    }
}
