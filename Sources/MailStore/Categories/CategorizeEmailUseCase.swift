import Categorizer
import EventLog
import EventModel
import MailParser
import Projections

/// The spec's `CategorizeEmailUseCase`: where an email is (primary, social, promotions, updates, forums) and why,
/// the user's corrections (which win over the classifier, also for later mail from the same sender), and a
/// re-run of a new classifier version over the existing mail. Everything is an event: a correction or a re-run
/// appends `EmailCategorized` (and `SenderCategoryLearned`), never editing what is in the log.
public struct CategorizeEmailUseCase {
    public let store: MailStore

    /// The use case over `store`.
    public init(store: MailStore) {
        self.store = store
    }

    /// Spec E-02: whether a categorizer is configured. When false the client hides the category tabs and shows
    /// every thread in one list.
    public var isAvailable: Bool { MailStore.categorizerEnabled }

    /// The classifier new mail is categorized with, as `name/version` (e.g. `rules/1`).
    public static var classifier: String { "\(Categorizer.name)/\(Categorizer.version)" }

    /// Where the built-in rules put a raw message (nothing is written).
    public func categorize(rawMessage: [UInt8]) -> Categorization {
        Categorizer().categorize(MessageSignals(MailParser.parse(rawMessage)))
    }

    /// Why an email is where it is: its newest `EmailCategorized` (nil: never categorized).
    public func explanation(emailID: String) throws(ThreadListError) -> EmailCategorized? {
        try wrap {
            var last: EmailCategorized?
            try store.log.scan(filter: ScanFilter(types: [.emailCategorized], stream: .email(emailID))) { ev in
                if case .emailCategorized(let p) = try ev.decode() { last = p }
                return true
            }
            return last
        }
    }

    /// The user puts thread `id` in `category`: a user `EmailCategorized` for each of its emails, and a learned
    /// rule for the sender of its newest email not from the account's own address, so that later mail from them
    /// goes there too.
    @discardableResult
    public func categorizeThread(id: String, as category: AICategory) throws(ThreadListError) -> CategoryCorrection {
        try wrap {
            guard category != .uncategorized else { throw CategorizeError.notACategory }
            let members = try store.latestViews().threadEmails(id: id)
            guard !members.isEmpty else { throw ThreadListError.threadNotFound(id: id) }
            let accounts = Set(members.map(\.email.account)).sorted()
            guard accounts.count == 1, let account = accounts.first else { throw ActionError.mixedAccounts(accounts) }
            let correlation = EventID.generate()
            var events = members.map { m in
                NewEvent(event: .emailCategorized(EmailCategorized(emailID: m.id, category: category,
                                                                   classifier: EmailCategorized.userClassifier,
                                                                   rule: "user.correction: thread \(id)")),
                         account: account, stream: .email(m.id), correlationID: correlation, actor: .user)
            }
            // The sender to learn: of the newest email not from the user's own addresses (the account's, or one with at
            // least half of its mail in Sent: a reply the user sent says nothing about where the other side's mail belongs).
            var own = Set([try store.account(named: account)?.email.lowercased()].compactMap { $0 })
            own.formUnion(try store.latestViews().sentAs(account: account, among: members.compactMap { $0.email.sender?.email.lowercased() }))
            let teacher = members.filter { $0.email.sender.map { !own.contains($0.email.lowercased()) } ?? false }
                .max { ($0.email.date, $0.email.sequence) < ($1.email.date, $1.email.sequence) }
            let sender = teacher?.email.sender?.email.lowercased() ?? ""
            if let teacher, !sender.isEmpty {
                events.append(NewEvent(event: .senderCategoryLearned(SenderCategoryLearned(sender: sender, category: category,
                                                                                           emailID: teacher.id)),
                                       account: account, stream: MailStore.senderRulesStream(account: account),
                                       correlationID: correlation, actor: .user))
            }
            try store.commit(events)
            return CategoryCorrection(threadID: id, category: category, emailIDs: members.map(\.id),
                                      learnedSender: sender.isEmpty ? nil : sender, correlationID: correlation)
        }
    }

    func wrap<T>(_ body: () throws -> T) throws(ThreadListError) -> T {
        do { return try body() } catch let e as ThreadListError { throw e } catch { throw .actionFailed(underlying: error) }
    }
}
