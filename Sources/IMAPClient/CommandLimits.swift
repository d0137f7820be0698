import SecureTransport

/// What one IMAP command may bring back, so a broken or hostile server cannot exhaust memory
/// (or time: see ``ServerEndpoint/commandTimeout``).
///
/// Every bound is per command; going over one fails the command with
/// ``IMAPClientError/responseLimitExceeded(command:limit:)`` and drops the connection. One
/// response on its own is bounded by the parser's limits (64 MiB per literal, 256 MiB per response).
package struct CommandLimits: Sendable, Equatable {
    /// Most untagged responses in one command, whether kept or streamed (default 10,000,000: a
    /// `FETCH 1:* (FLAGS)` of the largest real mailbox fits).
    package var maxResponses: Int
    /// Most bytes received during one command (default 512 MiB: a fetch batch is sized far below).
    package var maxBytes: Int
    /// Most responses one command keeps in memory: NOOP's responses, the messages SELECT reports
    /// changed, the ranges of VANISHED, the flags STORE sends back (default 1,000,000).
    package var maxCollected: Int
    /// Most UIDs a search returns, after a result claiming more than the mailbox holds is clamped to its
    /// UIDNEXT (default 10,000,000: 40 MB of UIDs).
    package var maxSearchResults: Int
    /// Most distinct mailboxes LIST returns (default 100,000); repeated names count once.
    package var maxMailboxes: Int
    /// Bytes received that extend a command's deadline by one second (default 256 KiB): a long
    /// fetch over a slow but steady link completes, a trickling server does not.
    package var deadlineBytesPerSecond: Int
    /// Most bytes of a UID set in one command this side sends (default 8,000): a longer set (sparse UIDs of a
    /// big folder) is sent as several commands, one per part, so the command line stays within what servers
    /// take (RFC 7162 section 4 asks clients for approximately 8192 octets; Dovecot refuses lines over 64 KiB).
    package var maxSetBytes: Int

    /// Limits with the given values; the defaults suit any real mailbox. Values below 1 are raised to 1
    /// (`maxSetBytes` to 21, the longest range).
    package init(maxResponses: Int = 10_000_000, maxBytes: Int = 512 << 20, maxCollected: Int = 1_000_000,
                maxSearchResults: Int = 10_000_000, maxMailboxes: Int = 100_000, deadlineBytesPerSecond: Int = 256 << 10,
                maxSetBytes: Int = 8_000) {
        self.maxSetBytes = max(21, maxSetBytes)
        self.maxResponses = max(1, maxResponses)
        self.maxBytes = max(1, maxBytes)
        self.maxCollected = max(1, maxCollected)
        self.maxSearchResults = max(1, maxSearchResults)
        self.maxMailboxes = max(1, maxMailboxes)
        self.deadlineBytesPerSecond = max(1, deadlineBytesPerSecond)
    }
}
