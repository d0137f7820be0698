/// Why an account operation failed, and what to do.
public enum AccountError: Error, CustomStringConvertible, Equatable {
    /// A setting is invalid.
    case invalid(String)
    /// An account with this name exists.
    case exists(String)
    /// No account has this name.
    case notFound(String)
    /// The password file can be read by others.
    case insecurePasswordFile(String, String)
    /// The secret cannot be read.
    case credentialUnavailable(String)
    /// The email's provider cannot be used over IMAP (ProtonMail, E-22); the text says what to do.
    case unsupportedProvider(String)
    /// An OAuth access token could not be had (a refresh refused, or its server unreachable).
    case oauth(OAuthError)
    /// Another account reads the same mailbox (the same IMAP server and login): every message would be listed and
    /// acted on twice.
    case sameMailbox(name: String, existing: String)
    /// The name differs from an account's (configured, removed, or holding imported mail) only by case, width or
    /// Unicode form: the two would be told apart by nothing a user sees.
    case nameLike(name: String, existing: String)
    /// The name was an account's reading another mailbox, removed since: its mail, sync state, drafts and pending
    /// actions are still filed under the name, and a new account would take them for its own.
    case nameHeldAnotherMailbox(name: String, login: String, host: String)
    /// Mail imported without a server is filed under the name: an account would take it for the server's.
    case nameHoldsImportedMail(String)
    /// An OAuth refresh was not made: the room for the new tokens (``OAuthTokenReservation``, the token file's maximum)
    /// could not be set aside beside the token `file` (`diskFull`: for want of space); nothing was sent, the sign-in
    /// stays valid.
    case noRoomForToken(account: String, file: String, reason: String, diskFull: Bool)
    /// The account's secret (an OAuth token file) could not be written to `file` (`diskFull`: for want of space).
    case secretNotWritten(file: String, reason: String, diskFull: Bool)

    public var description: String {
        switch self {
        case .invalid(let m): m
        case .exists(let n): "an account named \"\(n)\" exists already; remove it first or choose another name"
        case .notFound(let n): "no account named \"\(n)\"; see `mailstore account list`"
        case .insecurePasswordFile(let p, let mode):
            "\(p) has mode \(mode): a password file must be readable by its owner only; run `chmod 600 \(p)`"
        case .credentialUnavailable(let m): "cannot read the account's secret: \(m)"
        case .unsupportedProvider(let m): m
        case .oauth(let e): "cannot read the account's secret: \(e)"
        case .sameMailbox(let n, let existing):
            "the account \"\(existing)\" reads this mailbox already (the same server and login): a second account \"\(n)\" would list "
                + "and act on every message twice; use \"\(existing)\", or remove it first"
        case .nameLike(let n, let existing):
            "the name \"\(n)\" is too like the account name \"\(existing)\" (they differ only by case, width or Unicode form); choose another name"
        case .nameHeldAnotherMailbox(let n, let login, let host):
            "the name \"\(n)\" was the account of \(login) on \(host), removed since: its mail, sync state, drafts and pending actions "
                + "are still filed under it, and another mailbox would take them for its own; choose another name (adding \(login) "
                + "on \(host) again under \"\(n)\" is allowed)"
        case .nameHoldsImportedMail(let n):
            "mail imported without a server is filed under \"\(n)\": an account of that name would take it for the server's; "
                + "choose another name"
        case .noRoomForToken(let account, let file, let reason, let diskFull):
            "the sign-in of \(account) was not refreshed: no room could be set aside for its new tokens beside \(file) "
                + "(\(OAuthTokenFile.maxBytes / 1024) KiB, before the refresh: \(reason)); nothing was sent to the OAuth server and the "
                + "sign-in stays valid; " + (diskFull ? "the disk is full: free space and run the command again" : "run the command again")
        case .secretNotWritten(let file, let reason, let diskFull):
            "cannot write the account's secret to \(file) (\(reason))"
                + (diskFull ? "; the disk is full: free space and run the command again" : "")
        }
    }

    /// Whether it is a full disk (or quota): freeing space and trying again helps.
    public var isDiskFull: Bool {
        switch self {
        case .noRoomForToken(_, _, _, let diskFull), .secretNotWritten(_, _, let diskFull): diskFull
        default: false
        }
    }

    /// Whether a secret could not be written (or room for it not set aside): a file failure, not a setting.
    public var isWriteFailure: Bool {
        switch self {
        case .noRoomForToken, .secretNotWritten: true
        default: false
        }
    }
}
