import Foundation
import MailStore

extension ProjectCommand {
    /// `--view accounts`: the accounts and their settings (never a secret).
    func showAccounts(_ store: MailStore) throws {
        let accounts = try store.accounts()
        if json { return try printJSON(accounts) }
        if accounts.isEmpty { return Terminal.note("(no accounts)") }
        print(ThreadRow.fit("account", 16) + ThreadRow.fit("email", 28) + ThreadRow.fit("server", 36) + ThreadRow.fit("provider", 10) + "auth")
        for a in accounts {
            print(ThreadRow.fit(a.name, 16) + ThreadRow.fit(a.email, 28) + ThreadRow.fit("\(a.imapSecurity)://\(a.imapHost):\(a.imapPort)", 36)
                  + ThreadRow.fit(a.provider, 10) + a.auth)
        }
    }

    /// `--view sync`: per folder its last sync checkpoint and the server copies the log holds.
    func showSyncState(_ store: MailStore) throws {
        struct Row: Encodable {
            var account: String, folder: String, copies: Int
            var uidValidity: UInt32?, highestUID: UInt32?, uidNext: UInt32?, highestModSeq: UInt64?, complete: Bool
        }
        var rows: [Row] = []
        for a in try accountsToShow(store) {
            for f in try store.folders(account: a) where folder == nil || f.path == folder {
                let s = try store.syncState(account: a, folder: f.path)
                rows.append(Row(account: a, folder: f.path, copies: try store.syncedCount(account: a, folder: f.path),
                                uidValidity: s?.uidValidity, highestUID: s?.highestUID, uidNext: s?.uidNext,
                                highestModSeq: s?.highestModSeq, complete: s?.isComplete ?? false))
            }
        }
        if json { return try printJSON(rows) }
        // With --unified, each row names its account (the folders of two accounts share paths).
        let accountColumn: (String) -> String = unified ? { ThreadRow.fit($0, 16) } : { _ in "" }
        print(accountColumn("account") + ThreadRow.fit("folder", 28) + ThreadRow.fit("copies", 9) + ThreadRow.fit("uidvalidity", 13) + ThreadRow.fit("highest uid", 13)
              + ThreadRow.fit("uidnext", 9) + ThreadRow.fit("modseq", 10) + "state")
        for r in rows {
            let state = r.uidValidity == nil ? "never synced" : r.complete ? "complete" : "first sync in progress"
            print(accountColumn(r.account) + ThreadRow.fit(r.folder, 28) + ThreadRow.fit(String(r.copies), 9) + ThreadRow.fit(r.uidValidity.map(String.init) ?? "-", 13)
                  + ThreadRow.fit(r.highestUID.map(String.init) ?? "-", 13) + ThreadRow.fit(r.uidNext.map(String.init) ?? "-", 9)
                  + ThreadRow.fit(r.highestModSeq.map(String.init) ?? "-", 10) + state)
        }
    }
}
