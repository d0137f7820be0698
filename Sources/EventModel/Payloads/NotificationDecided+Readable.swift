import DomainNames

extension NotificationDecided {
    /// The title as a person reads it: when it is the sender's address (a sender without a name), with the address's
    /// internationalised domain as `EmailAddress.readable` shows it (`bob@bücher.example`); a sender's name as it is.
    /// What is stored, and `fromAddress`, keep the address as the mail wrote it.
    package var readableTitle: String {
        title == fromAddress ? IDNA.unicodeEmail(title) : title
    }
}
