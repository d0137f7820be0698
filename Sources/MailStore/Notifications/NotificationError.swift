/// A notification command that cannot be done, with what to do instead.
public enum NotificationError: Error, CustomStringConvertible, Equatable {
    /// The category name is not one of primary, social, promotions, updates, forums.
    case unknownCategory(String)
    /// A VIP address that is empty or not an address.
    case invalidAddress(String)
    /// A thread id that is empty or too long.
    case invalidThread(String)
    /// A notification identifier (`email-<emailId>`) whose email the store does not know.
    case unknownNotification(String)
    /// A reply that cannot be sent as written (the draft's problems).
    case replyNotSendable([String])
    /// `vip add` with `cap` VIPs already: nothing recorded.
    case tooManyVIPs(cap: Int)
    /// `mute` with `cap` threads muted already: nothing recorded.
    case tooManyMutedThreads(cap: Int)
    /// Other processes kept changing the notification preferences while a capped change was checked: nothing recorded.
    case settingsBusy

    public var description: String {
        switch self {
        case .unknownCategory(let c): "unknown category '\(c)': use primary, social, promotions, updates or forums"
        case .invalidAddress(let a): "'\(a)' is not an email address: give one like name@example.com"
        case .invalidThread(let t): "'\(t)' is not a thread id: take one from `mailstore project --view threads --json`"
        case .unknownNotification(let i): "no email for notification '\(i)': identifiers are email-<emailId>, from `mailstore notifications --json`"
        case .replyNotSendable(let p): "the reply cannot be sent: \(p.joined(separator: "; "))"
        case .tooManyVIPs(let cap): "not added: there are \(cap) VIPs already, the most kept; remove some first (`mailstore vip list`, `mailstore vip remove ADDRESS`)"
        case .tooManyMutedThreads(let cap):
            "not muted: \(cap) threads are muted already, the most kept; unmute some first (`mailstore notifications settings --json` lists them, `mailstore unmute THREAD`)"
        case .settingsBusy: "not recorded: other processes kept changing the notification settings; try again"
        }
    }
}
