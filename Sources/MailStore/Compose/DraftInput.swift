/// What `draft new` / `draft edit` set; nil leaves a field as it is.
public struct DraftInput: Sendable {
    public var to: String?
    public var cc: String?
    public var bcc: String?
    public var subject: String?
    public var body: String?
    /// Files to attach.
    public var attach: [String] = []
    /// Attachment file names to drop, each the name of one attachment (`DraftsUseCase.edit` refuses a name several
    /// share: `DraftError.ambiguousDetach`).
    public var detach: [String] = []
    /// Attachment positions to drop: 1-based, in the order of the draft's list (as `draft show` lists them).
    public var detachAt: [Int] = []
    /// An email id to reply to (subject "Re:", In-Reply-To, References, the original quoted below).
    public var replyTo: String?
    /// With `replyTo`: reply to all (the original's Reply-To or From and its To in To, its Cc in Cc, the account's own
    /// address left out); without it, to the Reply-To or From alone.
    public var replyAll = false
    /// An email id to forward (subject "Fwd:", the original below, its attachments attached).
    public var forward: String?

    public init(to: String? = nil, cc: String? = nil, bcc: String? = nil, subject: String? = nil, body: String? = nil,
                attach: [String] = [], detach: [String] = [], detachAt: [Int] = [], replyTo: String? = nil, replyAll: Bool = false,
                forward: String? = nil) {
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.body = body
        self.attach = attach
        self.detach = detach
        self.detachAt = detachAt
        self.replyTo = replyTo
        self.replyAll = replyAll
        self.forward = forward
    }
}
