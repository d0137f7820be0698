import ArgumentParser
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
    /// Shows each account's contacts, most frequent first: a page of `--limit` (`more: --cursor X` on stderr
    /// when more follow, for one account), or with `--all` every one. A page visits every contact and holds at
    /// most twice `--limit`; `--all` writes pages of 50,000 as it reads them (`ContactListing`).
    func showContacts(_ store: MailStore) throws {
        struct Row: Encodable { var account: String; var contacts: [Contact] }
        let after = try cursor.map { text -> (count: UInt64, address: String) in
            if unified { throw ValidationError("--cursor continues one account's contacts: give --account, not --unified") }
            guard let c = ContactsCursor(text) else { throw ValidationError("malformed --cursor") }
            return (c.count, c.address)
        }
        if all {
            let listing = ContactListing(json: json) { try store.contactsPage(account: $0, after: $1, limit: $2) }
            var out = OutputBuffer()
            try listing.write(accounts: try accountsToShow(store)) { out.write($0) }
            out.flush()
            return
        }
        var rows: [Row] = []
        var totals: [Int] = []
        var next: ContactsCursor?
        for a in try accountsToShow(store) {
            let page = try store.contactsPage(account: a, after: after, limit: limit)
            rows.append(Row(account: a, contacts: page.contacts))
            totals.append(page.total)
            if page.more, let last = page.contacts.last { next = ContactsCursor(count: last.count, address: last.address) }
        }
        if json {
            try printJSON(unified ? rows : [rows[0]])
        } else {
            for (r, total) in zip(rows, totals) {
                print("Contacts of \(TerminalSanitiser.line(r.account)): \(total)")
                for c in r.contacts { print(ContactListing.line(c)) }
            }
        }
        if let next, !unified { Terminal.note("more: --cursor \(next.text)") }
    }
}
