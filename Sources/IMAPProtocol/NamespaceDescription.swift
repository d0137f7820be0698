/// One namespace: a name prefix and its hierarchy delimiter.
package struct NamespaceDescription: Hashable, Sendable {
    /// The prefix, e.g. `""` or `INBOX.`.
    package var prefix: MailboxName
    /// The hierarchy delimiter, nil for `NIL`.
    package var delimiter: String?
    /// Extension data after the delimiter, kept generic.
    package var extensions: [IMAPValue]

    /// A namespace with the given parts.
    package init(prefix: MailboxName, delimiter: String?, extensions: [IMAPValue] = []) {
        self.prefix = prefix
        self.delimiter = delimiter
        self.extensions = extensions
    }
}
