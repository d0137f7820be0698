import IMAPProtocol

extension IMAPConnection {
    /// `APPEND mailbox [(flags)] [date] message`; returns the APPENDUID (UIDVALIDITY and the
    /// new message's UID) when the server sent one.
    package func append(to mailbox: MailboxName, message: [UInt8], flags: [String] = [],
                       date: InternalDate? = nil) throws(IMAPClientError) -> (uidValidity: UInt32, uid: UInt32)? {
        let completion = try run(.append(to: mailbox, flags: flags, date: date, message: message), name: "APPEND")
        guard case .appendUID(let uidValidity, let uids)? = completion.code, let uid = uids.first else { return nil }
        return (uidValidity, uid)
    }
}
