import Categorizer
import Dispatch

extension SyncEngine {
    /// Keeps the workers' categorizer current before a batch is categorized (the workers are idle): the account's
    /// learned sender rules are read again when their stream grew since they were read (a `categorize --as` made after
    /// the engine was made, here or in another process: one lookup of the stream's version per batch), and the contacts
    /// view (correspondents, aliases) once a run when the log moved on since it was read, at most every
    /// `categorizerPeopleInterval` (5 minutes). A `sync --watch` keeps its
    /// engine for its whole life: its mail had been categorized with the rules of its start until it was restarted.
    func refreshCategorizer() throws {
        guard var categorizer = workers.first?.categorizer else { return }
        var changed = false
        let version = try store.log.streamVersion(MailStore.senderRulesStream(account: account.name))
        if version != categorizerRulesVersion {
            // The version is read first: a rule learned meanwhile is read again before the next batch.
            categorizer.senderRules = try store.senderRules(account: account.name)
            categorizerRulesVersion = version
            changed = true
        }
        let sinceRead = Double(DispatchTime.now().uptimeNanoseconds &- categorizerPeopleReadAt) / 1e9
        if !categorizerPeopleChecked, sinceRead >= categorizerPeopleInterval {
            categorizerPeopleChecked = true
            let head = try store.head().sequence
            if head != categorizerPeopleAt {
                categorizerPeopleReadAt = DispatchTime.now().uptimeNanoseconds
                let people = try store.categorizerPeople(account: account.name)
                categorizer = Categorizer(senderRules: categorizer.senderRules, ownAddresses: people.own.union([account.email]),
                                          correspondents: people.wroteTo)
                categorizerPeopleAt = head
                changed = true
            }
        }
        if changed {
            for w in workers { w.categorizer = categorizer }
        }
    }
}
