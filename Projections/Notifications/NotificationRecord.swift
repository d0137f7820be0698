import EventModel

/// One decided notification in the notifications view: the decision, its account, and whether it was
/// delivered and withdrawn since.
public struct NotificationRecord: BinaryField, Equatable, Sendable {
    /// Where the notification stands.
    public enum State: UInt8, Sendable, CustomStringConvertible {
        /// Decided; a posted one waits for delivery.
        case decided = 0
        /// Shown by the notify command.
        case delivered = 1
        /// Withdrawn after delivery.
        case withdrawn = 2

        public var description: String {
            switch self {
            case .decided: "decided"
            case .delivered: "delivered"
            case .withdrawn: "withdrawn"
            }
        }
    }

    /// The decision with its content.
    public var decision: NotificationDecided
    /// The account.
    public var account: String
    /// The decision's position among all decisions (newer is larger).
    public var position: UInt64
    /// Delivery state.
    public var state: State

    /// Creates a record.
    public init(decision: NotificationDecided, account: String, position: UInt64, state: State = .decided) {
        self.decision = decision
        self.account = account
        self.position = position
        self.state = state
    }

    /// The notification request identifier, `email-<emailID>`.
    public var identifier: String { "email-\(decision.emailID)" }

    @usableFromInline package func write(to w: inout ByteWriter) {
        decision.encode(to: &w)
        w.write(account)
        w.write(position)
        w.writeByte(state.rawValue)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        decision = try NotificationDecided(from: &r, version: NotificationDecided.schemaVersion)
        account = try r.read()
        position = try r.read()
        state = State(rawValue: try r.readByte()) ?? .decided
    }
}
