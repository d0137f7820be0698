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
        }
    }
}
