import EventLog
import EventModel
import MailParser

extension MailStore {
    /// An email's `EmailReceived` event and payload.
    public struct ReceivedEmail: Sendable {
        /// The stored event.
        public var event: StoredEvent
        /// Its payload.
        public var payload: EmailReceived
    }

    /// The `EmailReceived` of email `id`, or nil.
    public func email(id: String) throws -> ReceivedEmail? {
        var found: ReceivedEmail?
        try log.scan(filter: ScanFilter(types: [.emailReceived], stream: .email(id))) { ev in
            if case .emailReceived(let p) = try ev.decode() { found = ReceivedEmail(event: ev, payload: p) }
            return found == nil
        }
        return found
    }

    /// The readable text of `email` (its plain text part, else its HTML part's text), at most `limit` UTF-8 bytes of
    /// it; nil when its raw message is missing from the blob store (`mailstore verify` names that).
    public func bodyText(of email: ReceivedEmail, limit: Int = BodyText.defaultLimit) throws -> BodyText? {
        guard let raw = try log.blob(email.payload.blob) else { return nil }
        let parsed = MailParser.parse(raw, fallbackDate: nil)
        // A plain part of only white space beside an HTML one says nothing: the HTML's text is shown.
        if let text = parsed.textBody, parsed.htmlBody == nil || !text.allSatisfy(\.isWhitespace) {
            return BodyText(text, fromHTML: false, limit: limit)
        }
        // The HTML's text is made up to the limit (and one byte more, so a cut is seen).
        if let html = parsed.htmlBody { return BodyText(HTMLText.plainText(html, limit: limit + 1), fromHTML: true, limit: limit) }
        return BodyText("", fromHTML: false, limit: limit)
    }
}
