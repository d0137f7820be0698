/// The user corrected an email's category: later mail from the same sender goes to the same category
/// (a learned sender rule, which wins over the classifier's own rules).
public struct SenderCategoryLearned: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The sender's address, lowercased.
    public var sender: String
    /// The category the user chose.
    public var category: AICategory
    /// The email whose correction taught it.
    public var emailID: String

    /// Creates the payload.
    public init(sender: String, category: AICategory, emailID: String) {
        self.sender = sender
        self.category = category
        self.emailID = emailID
    }

    package func encode(to w: inout ByteWriter) {
        w.write(sender)
        w.write(category)
        w.write(emailID)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        sender = try r.read()
        category = try r.read()
        emailID = try r.read()
    }
}
