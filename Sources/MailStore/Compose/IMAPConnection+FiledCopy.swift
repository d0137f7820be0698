import IMAPClient
import IMAPProtocol
import MessageComposer

extension IMAPConnection {
    /// APPENDs the copy of `m` filed in the sender's own folders (Sent, Drafts): ``ComposedMessage/filedCopy`` as
    /// `UTF8 (~{n}...)` when its header has raw UTF-8 (an address beyond ASCII) and UTF8=ACCEPT is enabled on this
    /// connection, else with that header in seven bits (``ComposedMessage/sevenBitFiledCopy``): RFC 6855 section 3
    /// lets a server refuse 8-bit header bytes otherwise, and some alter them (Cyrus writes an `X` for each byte).
    /// Returns the APPENDUID when the server sent one.
    func appendFiledCopy(_ m: ComposedMessage, to mailbox: MailboxName,
                         flags: [String]) throws(IMAPClientError) -> (uidValidity: UInt32, uid: UInt32)? {
        guard m.sevenBitHeader != nil else { return try append(to: mailbox, message: m.filedCopy, flags: flags) }
        if isEnabled("UTF8=ACCEPT") { return try append(to: mailbox, message: m.filedCopy, flags: flags, utf8: true) }
        return try append(to: mailbox, message: m.sevenBitFiledCopy, flags: flags)
    }
}
