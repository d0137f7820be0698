import EventModel

extension EmailReceived {
    /// The message an email copy is of, for counting a message once however many folders hold it: its
    /// Message-ID, or `<emailID>` when it has none (then the copy is a message of its own).
    package var messageKey: String {
        if let m = messageID, !m.isEmpty { return m }
        return "<\(emailID)>"
    }
}
