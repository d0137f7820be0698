/// What `CategorizeEmailUseCase.rerun` did.
public struct RerunSummary: Sendable, Equatable, Encodable {
    /// The classifier that ran (`rules/1`).
    public var classifier: String
    /// Emails looked at.
    public var examined = 0
    /// New `EmailCategorized` events appended.
    public var recategorized = 0
    /// Of those, emails whose category changed (or which had none).
    public var moved = 0
    /// Emails already categorized by this version.
    public var upToDate = 0
    /// Emails the user put somewhere (left alone).
    public var userCorrections = 0
    /// Emails whose raw message is not in the blob store (left alone).
    public var missingRaw: [String] = []
    /// Emails whose raw message is damaged in the blob store (left alone): `mailstore verify` names the blobs; restore
    /// the log from a backup.
    public var damagedRaw: [String] = []

    public init(classifier: String) { self.classifier = classifier }
}
