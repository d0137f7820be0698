/// An email was put in a category: by a classifier (with its name, version and the rule that fired) or by the
/// user (`classifier` "user"). The newest `EmailCategorized` of an email is where it is.
public struct EmailCategorized: PayloadCodable {
    /// The schema version this build writes.
    ///
    /// 2: `classifierVersion` and `rule` (version 1 reads with 0 and "").
    public static let schemaVersion: UInt16 = 2

    /// What `classifier` says for a user's own correction.
    public static let userClassifier = "user"

    /// The email.
    public var emailID: String
    /// primary, social, promotions, updates, forums or uncategorized.
    public var category: AICategory
    /// What decided it: the classifier's name (e.g. `rules`), or `user` for a user's correction.
    public var classifier: String
    /// The classifier's version (0: unknown, or a user's correction).
    public var classifierVersion: UInt32
    /// The rule that fired, e.g. `forums.list-post`, with its evidence after a colon
    /// (`forums.list-post: <mailto:dev@lists.example.org>`); empty when unknown.
    public var rule: String

    /// Creates the payload.
    public init(emailID: String, category: AICategory, classifier: String = "", classifierVersion: UInt32 = 0, rule: String = "") {
        self.emailID = emailID
        self.category = category
        self.classifier = classifier
        self.classifierVersion = classifierVersion
        self.rule = rule
    }

    /// Whether the user put it there (a correction, which later classifier runs leave alone).
    public var isUserCorrection: Bool { classifier == EmailCategorized.userClassifier }

    package func encode(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(category)
        w.write(classifier)
        w.write(classifierVersion)
        w.write(rule)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
        category = try r.read()
        classifier = try r.read()
        if version >= 2 {
            classifierVersion = try r.read()
            rule = try r.read()
        } else {
            classifierVersion = 0
            rule = ""
        }
    }
}
