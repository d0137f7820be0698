/// A classifier put an email in a category.
public struct EmailCategorized: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The email.
    public var emailID: String
    /// primary, social, promotions, updates, forums or uncategorized.
    public var category: AICategory
    /// What decided it (model name and version).
    public var classifier: String

    /// Creates the payload.
    public init(emailID: String, category: AICategory, classifier: String = "") {
        self.emailID = emailID
        self.category = category
        self.classifier = classifier
    }

    public func encode(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(category)
        w.write(classifier)
    }

    public init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
        category = try r.read()
        classifier = try r.read()
    }
}
