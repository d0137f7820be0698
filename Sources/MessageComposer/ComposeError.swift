/// Why a draft cannot be made into a message, and what to change.
package enum ComposeError: Error, CustomStringConvertible, Equatable {
    /// Addresses of the draft (From, To, Cc or Bcc) are not usable.
    case invalidAddresses([InvalidAddress])
    /// The draft has no recipient in To, Cc or Bcc.
    case noRecipients
    /// The `Message-ID` domain is not a host name.
    case invalidMessageIDDomain(String)

    /// A sentence saying what is wrong and what to do.
    package var description: String {
        switch self {
        case .invalidAddresses(let invalid):
            return "invalid addresses: \(invalid.map(\.description).joined(separator: "; ")); correct or remove them"
        case .noRecipients:
            return "the message has no recipient: add one to To, Cc or Bcc"
        case .invalidMessageIDDomain(let domain):
            return "\"\(domain)\" cannot be the domain of a Message-ID: give a host name such as example.com"
        }
    }
}
