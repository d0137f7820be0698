/// A notification command that cannot be done, with what to do instead.
public enum NotificationError: Error, CustomStringConvertible, Equatable {
    /// The category name is not one of primary, social, promotions, updates, forums.
    case unknownCategory(String)
    /// A VIP address that is empty or not an address.
    case invalidAddress(String)
    /// A thread id that is empty or too long.
    case invalidThread(String)

    public var description: String {
        switch self {
        case .unknownCategory(let c): "unknown category '\(c)': use primary, social, promotions, updates or forums"
        case .invalidAddress(let a): "'\(a)' is not an email address: give one like name@example.com"
        case .invalidThread(let t): "'\(t)' is not a thread id: take one from `mailstore project --view threads --json`"
        }
    }
}
