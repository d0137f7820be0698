/// The header fields whose presence or value the rules use.
public enum SignalHeader: String, Sendable, CaseIterable, Hashable {
    case listID = "list-id"
    case listPost = "list-post"
    case listUnsubscribe = "list-unsubscribe"
    case listUnsubscribePost = "list-unsubscribe-post"
    case listArchive = "list-archive"
    case archivedAt = "archived-at"
    case precedence = "precedence"
    case autoSubmitted = "auto-submitted"
    case autoResponseSuppress = "x-auto-response-suppress"
    case mailman = "x-mailman-version"
    case beenThere = "x-beenthere"
    case mailingList = "x-mailing-list"
    case googleGroup = "x-google-group-id"
    case githubReason = "x-github-reason"
    case gitlabProject = "x-gitlab-project"
    case jira = "x-jira-fingerprint"
    case bugzilla = "x-bugzilla-product"
    case gerrit = "x-gerrit-messagetype"
    case rtTicket = "rt-ticket"
    case mailchimp = "x-mc-user"
    case campaign = "x-campaign"
    case campaignID = "x-campaignid"
    case sendgrid = "x-sg-eid"
    case mailgun = "x-mailgun-tag"
    case sesOutgoing = "x-ses-outgoing"
    case feedbackID = "feedback-id"
    case marketo = "x-mktomailhdr"
    case hubspot = "x-hs-cid"
    case emarsys = "x-emarsys-identify"
    case facebook = "x-facebook-notify"
    case linkedin = "x-linkedin-class"
    case mailer = "x-mailer"
    case returnPath = "return-path"

    private static let byName: [String: SignalHeader] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
    /// Lengths of the names, to skip most fields without lowercasing them.
    private static let lengths: Set<Int> = Set(allCases.map { $0.rawValue.utf8.count })

    /// The kind of a header field name (any case), or nil when the rules do not use it.
    public static func kind(of name: String) -> SignalHeader? {
        guard lengths.contains(name.utf8.count) else { return nil }
        return byName[name.lowercased()]
    }
}
