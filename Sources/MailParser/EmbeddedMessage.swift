/// An immutable box holding an embedded message, so that `MIMEPart` (a
/// struct) can contain a `ParsedMessage` (which contains a `MIMEPart`).
final class EmbeddedMessage: Sendable {
    /// The embedded message.
    let message: ParsedMessage

    /// Boxes a message.
    init(_ message: ParsedMessage) {
        self.message = message
    }
}
