import Foundation
import MailStore

extension ProjectCommand {
    /// `--view actions`: the actions not yet on the server and those refused or failed, per account.
    func showActions(_ store: MailStore) throws {
        var rows: [ActionRecord] = []
        for a in try accountsToShow(store) {
            var seen = Set<String>()
            for r in try store.pendingActions(account: a) + store.failedActions(account: a) where seen.insert(r.id.description).inserted {
                rows.append(r)
            }
        }
        if json { return try printJSON(rows.map(ActionsCommand.Row.init)) }
        for r in rows { print(ActionsCommand.line(r)) }
        if rows.isEmpty { Terminal.note("(no pending or failed actions)") }
    }

    /// `--view drafts`: the drafts, newest first, with where each is on its way out.
    func showDrafts(_ store: MailStore) throws {
        struct Row: Encodable {
            var account: String, draftId: String, version: UInt32, state: String, subject: String, savedAt: String
        }
        var rows: [(DraftRecord, String)] = []
        for a in try accountsToShow(store) {
            for d in try store.drafts(account: a).sorted(by: { $0.savedAt > $1.savedAt }) {
                rows.append((d, try store.outboxItem(draftID: d.latest.draftID)?.state.description ?? "draft"))
            }
        }
        if json {
            return try printJSON(rows.map { d, state in
                Row(account: d.account, draftId: d.latest.draftID, version: d.latest.draftVersion, state: state,
                    subject: d.latest.subject, savedAt: d.savedAt.iso8601)
            })
        }
        for (d, state) in rows { print(DraftListCommand.line(d, state: state)) }
        if rows.isEmpty { Terminal.note("(no drafts)") }
    }

    /// `--view contacts`: the people seen in an account's mail, most frequent first.
    func showContacts(_ store: MailStore) throws {
        struct Row: Encodable { var account: String; var contacts: [Contact] }
        var rows: [Row] = []
        for a in try accountsToShow(store) { rows.append(Row(account: a, contacts: try store.contacts(account: a))) }
        if json { return try printJSON(unified ? rows : [rows[0]]) }
        for r in rows {
            print("Contacts of \(r.account): \(r.contacts.count)")
            for c in r.contacts {
                print("  " + ThreadRow.fit(c.name.map { "\($0) <\(c.address)>" } ?? c.address, 48)
                      + "  \(c.count) messages, \(c.sent) from them, last \(c.lastSeen.iso8601)")
            }
        }
    }
}
