/// The header fields whose presence or value the rules use (`name`: the field name, lowercased).
package enum SignalHeader: Int, Sendable, CaseIterable, Hashable {
    case listID
    case listPost
    case listUnsubscribe
    case listUnsubscribePost
    case listArchive
    case archivedAt
    case precedence
    case autoSubmitted
    case autoResponseSuppress
    case mailman
    case beenThere
    case mailingList
    case googleGroup
    case githubReason
    case gitlabProject
    case jira
    case bugzilla
    case gerrit
    case rtTicket
    case mailchimp
    case campaign
    case campaignID
    case sendgrid
    case mailgun
    case sesOutgoing
    case feedbackID
    case marketo
    case hubspot
    case emarsys
    case facebook
    case linkedin
    case mailer
    case returnPath

    /// The field name, lowercased.
    package var name: String { SignalHeader.names[rawValue] }

    private static let names: [String] = [
        "list-id",
        "list-post",
        "list-unsubscribe",
        "list-unsubscribe-post",
        "list-archive",
        "archived-at",
        "precedence",
        "auto-submitted",
        "x-auto-response-suppress",
        "x-mailman-version",
        "x-beenthere",
        "x-mailing-list",
        "x-google-group-id",
        "x-github-reason",
        "x-gitlab-project",
        "x-jira-fingerprint",
        "x-bugzilla-product",
        "x-gerrit-messagetype",
        "rt-ticket",
        "x-mc-user",
        "x-campaign",
        "x-campaignid",
        "x-sg-eid",
        "x-mailgun-tag",
        "x-ses-outgoing",
        "feedback-id",
        "x-mktomailhdr",
        "x-hs-cid",
        "x-emarsys-identify",
        "x-facebook-notify",
        "x-linkedin-class",
        "x-mailer",
        "return-path",
    ]

    private static let byName: [String: SignalHeader] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
    /// Lengths of the names, to skip most fields without lowercasing them.
    private static let lengths: Set<Int> = Set(allCases.map { $0.name.utf8.count })

    /// The kind of a header field name (any case), or nil when the rules do not use it.
    package static func kind(of name: String) -> SignalHeader? {
        guard lengths.contains(name.utf8.count) else { return nil }
        return byName[name.lowercased()]
    }
}
