import EventLog
import EventModel

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
}
