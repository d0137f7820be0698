import EventModel

/// A rule-based, explainable mail categorizer: primary, social, promotions, updates or forums from header
/// signals (list headers, bulk and ESP headers, automation headers, known senders), the subject and the
/// sender, plus the user's learned sender rules. Pure (no I/O, no network, no model), deterministic and
/// versioned: a change of any rule or list bumps `version`, and `mailstore categorize --rerun` re-files the
/// existing mail with the new version. The rules, in the order they are tried, are in docs/categories.md.
public struct Categorizer: Sendable {
    /// The classifier's name, recorded in `EmailCategorized.classifier`.
    public static let name = "rules"
    /// The rules' version, recorded in `EmailCategorized.classifierVersion`.
    public static let version: UInt32 = 1

    /// The user's learned sender rules (tried first).
    public var senderRules: SenderRules
    /// The account's own addresses, lowercased: mail from them is primary.
    public var ownAddresses: Set<String>
    /// People the user wrote to, lowercased: their mail is primary.
    public var correspondents: Set<String>

    /// Creates a categorizer with the user's rules and addresses.
    public init(senderRules: SenderRules = SenderRules(), ownAddresses: Set<String> = [], correspondents: Set<String> = []) {
        self.senderRules = senderRules
        self.ownAddresses = Set(ownAddresses.map { $0.lowercased() })
        self.correspondents = Set(correspondents.map { $0.lowercased() })
    }

    /// Where `m` goes, and the rule that put it there. The first rule that matches decides.
    package func categorize(_ m: MessageSignals) -> Categorization {
        let from = m.from
        let (local, domain) = Categorizer.split(from)
        if let learned = senderRules.match(from) {
            return Categorization(category: learned.category, rule: "sender.learned", evidence: learned.key)
        }
        if !from.isEmpty, ownAddresses.contains(from) {
            return Categorization(category: .primary, rule: "primary.own", evidence: from)
        }
        if let h = Categorizer.serviceHeader(m) {
            return Categorization(category: .updates, rule: "updates.service-headers", evidence: h)
        }
        if let t = Categorizer.ticketTag(m.subject) {
            return Categorization(category: .updates, rule: "updates.ticket", evidence: t)
        }
        if let d = Categorizer.matchDomain(domain, Categorizer.socialDomains) ?? Categorizer.matchDomain(Categorizer.split(m.sender).domain, Categorizer.socialDomains) {
            return Categorization(category: .social, rule: "social.network", evidence: d)
        }
        if let h = m[.facebook] ?? m[.linkedin] {
            return Categorization(category: .social, rule: "social.network", evidence: h)
        }
        if let forum = Categorizer.discussionList(m, domain: domain) { return forum }
        if let auto = m[.autoSubmitted], !auto.lowercased().hasPrefix("no") {
            return Categorization(category: .updates, rule: "updates.auto-submitted", evidence: "Auto-Submitted: \(auto)")
        }
        let automated = Categorizer.isAutomated(local)
        let bulk = Categorizer.bulkSignal(m)
        lazy var subject = Array(m.subject.lowercased().utf8)
        if automated || bulk != nil, let t = Categorizer.transactional.firstMatch(in: subject),
           automated || Categorizer.promotional.firstMatch(in: subject) == nil {
            return Categorization(category: .updates, rule: "updates.transactional", evidence: t)
        }
        if let esp = Categorizer.campaignHeader(m) {
            return Categorization(category: .promotions, rule: "promotions.campaign-headers", evidence: esp)
        }
        if let b = bulk {
            if let w = Categorizer.promotional.firstMatch(in: subject) { return Categorization(category: .promotions, rule: "promotions.bulk-offer", evidence: "\(b); \(w)") }
            if Categorizer.marketingLocalParts.contains(Categorizer.stem(local)) {
                return Categorization(category: .promotions, rule: "promotions.marketing-sender", evidence: "\(b); \(local)@")
            }
            if m.htmlImages >= 6 || m.htmlLinks >= 20 {
                return Categorization(category: .promotions, rule: "promotions.tracking-html",
                                      evidence: "\(b); \(m.htmlImages) images, \(m.htmlLinks) links")
            }
        }
        if automated {
            return Categorization(category: .updates, rule: "updates.automated-sender", evidence: from)
        }
        if let b = bulk {
            if b.hasPrefix("Precedence") && m[.listUnsubscribe] == nil {
                return Categorization(category: .updates, rule: "updates.bulk", evidence: b)
            }
            return Categorization(category: .promotions, rule: "promotions.bulk", evidence: b)
        }
        if let id = m[.listID] {
            return Categorization(category: .forums, rule: "forums.list-id", evidence: id)
        }
        if !from.isEmpty, correspondents.contains(from) {
            return Categorization(category: .primary, rule: "primary.correspondent", evidence: from)
        }
        if m.isReply {
            return Categorization(category: .primary, rule: "primary.reply", evidence: from)
        }
        return Categorization(category: .primary, rule: "primary.person", evidence: from)
    }
}
