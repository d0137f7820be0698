import Categorizer
import EventLog
import EventModel
import Foundation
import Projections
import Views

extension MailStore {
    /// Whether new mail is categorized: on unless `MAILSTORE_CATEGORIZER=off` (then the category tabs are hidden,
    /// spec E-02, and `CategorizeEmailUseCase.isAvailable` is false).
    public static var categorizerEnabled: Bool {
        ProcessInfo.processInfo.environment["MAILSTORE_CATEGORIZER"]?.lowercased() != "off"
    }

    /// The stream of an account's learned sender rules (`SenderCategoryLearned`).
    public static func senderRulesStream(account: String) -> StreamName { StreamName(rawValue: "categories/" + account) }

    /// The account's learned sender rules, oldest first (the newest for a sender wins).
    public func senderRules(account: String) throws -> SenderRules {
        var rules = SenderRules()
        try log.scan(filter: ScanFilter(types: [.senderCategoryLearned], stream: MailStore.senderRulesStream(account: account))) { ev in
            if case .senderCategoryLearned(let p) = try ev.decode() { rules.learn(p.sender, p.category) }
            return true
        }
        return rules
    }

    /// The categorizer for `account`'s new mail: the built-in rules with the user's learned sender rules and the
    /// people the user wrote to (the contacts view: recipients of mail in Sent-role folders); `ownAddresses` with the
    /// user's aliases (addresses with most of their mail in Sent-role folders); nil when categorizing is off.
    public func categorizer(account: String, ownAddresses: Set<String> = []) throws -> Categorizer? {
        guard MailStore.categorizerEnabled else { return nil }
        let people = try categorizerPeople(account: account)
        return Categorizer(senderRules: try senderRules(account: account), ownAddresses: ownAddresses.union(people.own),
                           correspondents: people.wroteTo)
    }

    /// What the categorizer reads from the contacts view for `account`: the addresses the user wrote to and the
    /// user's aliases (both lowercased; empty when there are no views yet). Open views are read as they are;
    /// otherwise the current generation is read without opening the store's views (a bulk import folds them only
    /// when it ends).
    func categorizerPeople(account: String) throws -> (wroteTo: Set<String>, own: Set<String>) {
        let read: (Snapshot) throws -> (wroteTo: Set<String>, own: Set<String>) = { try ContactsReader($0).people(account: account) }
        let people = try viewsIfOpen.map { try $0.read(read) } ?? ViewStore.readCurrent(store: directory, log: log, read)
        return people ?? ([], [])
    }
}
