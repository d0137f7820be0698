import IMAPProtocol

extension IMAPConnection {
    /// `APPEND mailbox [(flags)] [date] message`; returns the APPENDUID (UIDVALIDITY and the
    /// new message's UID) when the server sent one. With `utf8` (a header with raw UTF-8, UTF8=ACCEPT enabled:
    /// RFC 6855 section 4) the message goes as `UTF8 (~{n}...)`.
    package func append(to mailbox: MailboxName, message: [UInt8], flags: [String] = [],
                       date: InternalDate? = nil, utf8: Bool = false) throws(IMAPClientError) -> (uidValidity: UInt32, uid: UInt32)? {
        let completion = try run(.append(to: mailbox, flags: flags, date: date, message: message, utf8: utf8), name: "APPEND")
        guard case .appendUID(let uidValidity, let uids)? = completion.code, let uid = uids.first else { return nil }
        return (uidValidity, uid)
    }
}
