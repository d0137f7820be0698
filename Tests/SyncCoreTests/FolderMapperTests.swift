import EventModel
import IMAPProtocol
import SyncCore
import XCTest

final class FolderMapperTests: XCTestCase {
    private func item(_ name: String, _ attributes: [String] = [], delimiter: String? = "/") -> ListItem {
        ListItem(attributes: attributes, delimiter: delimiter, mailbox: MailboxName(name))
    }

    private func roles(_ items: [ListItem], _ provider: Provider = ProviderRegistry.custom) throws -> [String: FolderRole] {
        Dictionary(uniqueKeysWithValues: try FolderMapper.map(items, provider: provider).map { ($0.path, $0.role) })
    }

    func testSpecialUseWinsOverNames() throws {
        let r = try roles([item("INBOX"), item("Papers", ["\\HasNoChildren", "\\Sent"]), item("Sent"),
                           item("Bin", ["\\Trash"]), item("Spam", ["\\Junk"])])
        XCTAssertEqual(r["INBOX"], .inbox)
        XCTAssertEqual(r["Papers"], .sent)
        // A name heuristic never gives a role SPECIAL-USE already gave.
        XCTAssertEqual(r["Sent"], .custom)
        XCTAssertEqual(r["Bin"], .trash)
        XCTAssertEqual(r["Spam"], .junk)
    }

    func testGmailProviderNamesAndExcludedAllMail() throws {
        let items = [item("INBOX"), item("[Gmail]", ["\\Noselect", "\\HasChildren"]), item("[Gmail]/Sent Mail"),
                     item("[Gmail]/All Mail"), item("[Gmail]/Spam"), item("[Gmail]/Trash"), item("[Gmail]/Starred"),
                     item("[Gmail]/Drafts"), item("Receipts")]
        let mapped = try FolderMapper.map(items, provider: ProviderRegistry.gmail)
        let r = Dictionary(uniqueKeysWithValues: mapped.map { ($0.path, $0.role) })
        XCTAssertNil(r["[Gmail]"], "\\Noselect is skipped")
        XCTAssertEqual(r["[Gmail]/All Mail"], .all, "Gmail's All Mail is known by its name (the archive target)")
        XCTAssertEqual(mapped.filter { !$0.syncable }.map(\.path), ["[Gmail]/All Mail"], "and excluded from sync")
        XCTAssertEqual(r["[Gmail]/Sent Mail"], .sent)
        XCTAssertEqual(r["[Gmail]/Spam"], .junk)
        XCTAssertEqual(r["[Gmail]/Trash"], .trash)
        XCTAssertEqual(r["[Gmail]/Starred"], .flagged)
        XCTAssertEqual(r["[Gmail]/Drafts"], .drafts)
        XCTAssertEqual(r["Receipts"], .custom)
        XCTAssertEqual(mapped.first { $0.path == "[Gmail]/Sent Mail" }?.tier, .providerName)
        XCTAssertEqual(mapped.first { $0.path == "[Gmail]/Sent Mail" }?.displayName, "Sent Mail")
    }

    func testGmailsAllMailWithSpecialUseIsKnownButNotSynced() throws {
        let items = [item("INBOX"), item("[Gmail]/All Mail", ["\\HasNoChildren", "\\All"]), item("[Gmail]/Sent Mail", ["\\Sent"])]
        let mapped = try FolderMapper.map(items, provider: ProviderRegistry.gmail)
        let all = try XCTUnwrap(mapped.first { $0.path == "[Gmail]/All Mail" }, "kept for its role: Gmail's archive target")
        XCTAssertEqual(all.role, .all)
        XCTAssertFalse(all.syncable, "excluded from sync all the same")
        XCTAssertTrue(mapped.filter { $0.path != "[Gmail]/All Mail" }.allSatisfy(\.syncable))
        XCTAssertThrowsError(try FolderMapper.map([item("[Gmail]/All Mail", ["\\All"])], provider: ProviderRegistry.gmail),
                             "an unsyncable folder alone is no email folder")
    }

    /// A Gmail All Mail without `\All` (a server or proxy that sends no SPECIAL-USE) is All Mail by the provider's
    /// name map, kept unsyncable, so archive has its target; a folder with `\All` wins over it.
    func testGmailsAllMailWithoutSpecialUseIsKnownByItsName() throws {
        for prefix in ["[Gmail]", "[Google Mail]"] {
            let mapped = try FolderMapper.map([item("INBOX"), item("\(prefix)/All Mail", ["\\HasNoChildren"]), item("\(prefix)/Sent Mail")],
                                              provider: ProviderRegistry.gmail)
            let all = try XCTUnwrap(mapped.first { $0.path == "\(prefix)/All Mail" }, "kept for its role")
            XCTAssertEqual(all.role, .all)
            XCTAssertEqual(all.tier, .providerName)
            XCTAssertFalse(all.syncable, "never fetched")
        }
        let both = try FolderMapper.map([item("INBOX"), item("[Gmail]/All Mail"), item("Everything", ["\\All"])],
                                        provider: ProviderRegistry.gmail)
        XCTAssertEqual(both.filter { $0.role == .all }.map(\.path), ["Everything"], "SPECIAL-USE wins")
        XCTAssertNil(both.first { $0.path == "[Gmail]/All Mail" }, "excluded, and no role to keep it for")
        // Another provider's folder named All Mail gets no role from Gmail's map, and is synced.
        let custom = try FolderMapper.map([item("INBOX"), item("[Gmail]/All Mail")], provider: ProviderRegistry.custom)
        XCTAssertEqual(custom.first { $0.path == "[Gmail]/All Mail" }?.syncable, true)
    }

    func testProviderMapsOutlookYahooICloud() throws {
        let outlook = try roles([item("INBOX"), item("Sent Items"), item("Deleted Items"), item("Junk Email")], ProviderRegistry.outlook)
        XCTAssertEqual(outlook, ["INBOX": .inbox, "Sent Items": .sent, "Deleted Items": .trash, "Junk Email": .junk])
        let yahoo = try roles([item("Inbox"), item("Bulk Mail"), item("Draft"), item("Sent")], ProviderRegistry.yahoo)
        XCTAssertEqual(yahoo["Bulk Mail"], .junk)
        XCTAssertEqual(yahoo["Draft"], .drafts)
        XCTAssertEqual(yahoo["INBOX"], .inbox, "INBOX is case-insensitive and recorded as INBOX")
        let icloud = try roles([item("INBOX"), item("Sent Messages"), item("Deleted Messages"), item("Notes"),
                                item("Notes/Work")], ProviderRegistry.icloud)
        XCTAssertEqual(icloud["Sent Messages"], .sent)
        XCTAssertEqual(icloud["Deleted Messages"], .trash)
        XCTAssertNil(icloud["Notes"], "iCloud Notes is excluded")
        XCTAssertNil(icloud["Notes/Work"], "and its children")
    }

    func testHeuristicsTranslationsExactNamesOnly() throws {
        let r = try roles([item("INBOX"), item("INBOX.Gesendete Objekte", delimiter: "."), item("INBOX.Papierkorb", delimiter: "."),
                           item("INBOX.Brouillons", delimiter: "."), item("INBOX.My Spam Folder", delimiter: "."),
                           item("INBOX.Archiv 2024", delimiter: "."), item("INBOX.Projects", delimiter: "."),
                           item("INBOX.Presentations", delimiter: "."), item("INBOX.Drafting", delimiter: "."),
                           item("INBOX.Spam", delimiter: ".")])
        XCTAssertEqual(r["INBOX.Gesendete Objekte"], .sent)
        XCTAssertEqual(r["INBOX.Papierkorb"], .trash)
        XCTAssertEqual(r["INBOX.Brouillons"], .drafts)
        XCTAssertEqual(r["INBOX.Spam"], .junk)
        // No substrings of ordinary words: a role needs the whole name.
        XCTAssertEqual(r["INBOX.My Spam Folder"], .custom)
        XCTAssertEqual(r["INBOX.Archiv 2024"], .custom)
        XCTAssertEqual(r["INBOX.Presentations"], .custom, "contains 'sent' but is not Sent (no INBOX.Sent here)")
        XCTAssertEqual(r["INBOX.Drafting"], .custom)
        XCTAssertEqual(r["INBOX.Projects"], .custom)
        XCTAssertFalse(r.values.contains(.archive), "\(r)")
    }

    /// The names Outlook gives its folders in German and Dutch (now that a name must match whole, each is listed).
    func testOutlooksTranslatedNames() throws {
        let german = try roles([item("INBOX"), item("Gesendete Elemente", delimiter: "/"), item("Gelöschte Elemente", delimiter: "/"),
                                item("Junk-E-Mail", delimiter: "/")])
        XCTAssertEqual(german["Gesendete Elemente"], .sent)
        XCTAssertEqual(german["Gelöschte Elemente"], .trash)
        XCTAssertEqual(german["Junk-E-Mail"], .junk)
        let dutch = try roles([item("INBOX"), item("Verzonden items", delimiter: "/"), item("Verwijderde items", delimiter: "/")])
        XCTAssertEqual(dutch["Verzonden items"], .sent)
        XCTAssertEqual(dutch["Verwijderde items"], .trash)
    }

    func testAWordContainingARoleNameGivesNoRole() throws {
        let r = try roles([item("INBOX"), item("Sent to boss"), item("Presentations"), item("Consent forms"), item("Trashy novels"),
                           item("Bulk orders"), item("Archived projects")])
        XCTAssertEqual(Set(r.values), [.inbox, .custom], "\(r)")
    }

    /// An ordinary folder named `Flagged` or `Starred` (any depth, with SPECIAL-USE elsewhere or not) has no role: it had
    /// taken `\Flagged` by its name and replaced the virtual Starred view. A server's own flagged folder keeps it.
    func testNoNameGivesTheFlaggedRole() throws {
        let plain = try roles([item("INBOX"), item("Flagged"), item("Starred"), item("Work/Starred"), item("INBOX.Flagged", delimiter: ".")])
        XCTAssertEqual(Set(plain.values), [.inbox, .custom], "\(plain)")
        let withSpecialUse = try roles([item("INBOX"), item("Sent", ["\\Sent"]), item("Projects/Flagged"), item("Flagged")])
        XCTAssertEqual(withSpecialUse["Flagged"], .custom)
        XCTAssertEqual(withSpecialUse["Projects/Flagged"], .custom)
        XCTAssertEqual(try roles([item("INBOX"), item("Important", ["\\Flagged"]), item("Flagged")]),
                       ["INBOX": .inbox, "Important": .flagged, "Flagged": .custom], "SPECIAL-USE \\Flagged still gives it")
        XCTAssertEqual(FolderNaming.role(forPath: "Starred"), .custom)
    }

    /// A nested folder named like a role is the user's own: no role by its name, even with no other candidate.
    func testANestedNameGivesNoRole() throws {
        let r = try roles([item("INBOX"), item("Projects/Trash"), item("Clients/Acme/Sent"), item("INBOX/Drafts")])
        XCTAssertEqual(r, ["INBOX": .inbox, "Projects/Trash": .custom, "Clients/Acme/Sent": .custom, "INBOX/Drafts": .drafts])
    }

    func testExactNameBeatsAnotherCandidateForTheSameRole() throws {
        let r = try roles([item("INBOX"), item("Sent to boss"), item("Sent")])
        XCTAssertEqual(r["Sent"], .sent)
        XCTAssertEqual(r["Sent to boss"], .custom)
    }

    /// Every order of `items`, the first one as given (at most 6! = 720 orders: the tests list at most 6 folders).
    private func orders(_ items: [ListItem]) -> [[ListItem]] {
        precondition(items.count <= 6, "permutations of at most 6 items")
        guard items.count > 1 else { return [items] }
        var out: [[ListItem]] = []
        for i in items.indices {
            var rest = items
            let first = rest.remove(at: i)
            out += orders(rest).map { [first] + $0 }
        }
        return out
    }

    /// The roles of `items` in every LIST order, checked to be the same each time; returns them.
    private func rolesInEveryOrder(_ items: [ListItem], file: StaticString = #filePath, line: UInt = #line) throws -> [String: FolderRole] {
        let expected = try roles(items)
        for order in orders(items) {
            XCTAssertEqual(try roles(order), expected, "LIST order \(order.map(\.mailbox.name))", file: file, line: line)
        }
        return expected
    }

    func testANestedTrashNeverTakesTheRoleFromTheTopLevelOneWhateverTheListOrder() throws {
        // Courier: INBOX.Alpha2.Trash listed before INBOX.Trash had taken the Trash role.
        let r = try rolesInEveryOrder([item("INBOX", delimiter: "."), item("INBOX.Zeta.Trash", delimiter: "."),
                                       item("INBOX.Alpha2.Trash", delimiter: "."), item("INBOX.Trash", delimiter: "."),
                                       item("INBOX.Misc.Trash", delimiter: "."), item("INBOX.Y2019.Trash", delimiter: ".")])
        XCTAssertEqual(r["INBOX.Trash"], .trash)
        XCTAssertEqual(r.filter { $0.value == .trash }.count, 1)
    }

    func testATopLevelNameWinsOverANestedOneOnAServerWithoutTheINBOXPrefix() throws {
        let r = try rolesInEveryOrder([item("INBOX"), item("Archive/Drafts"), item("Drafts"), item("Clients/Acme/Sent"),
                                       item("Sent"), item("Archive")])
        XCTAssertEqual(r, ["INBOX": .inbox, "Drafts": .drafts, "Sent": .sent, "Archive": .archive,
                           "Archive/Drafts": .custom, "Clients/Acme/Sent": .custom])
    }

    func testAmongEqualCandidatesTheShortestPathThenTheNameWinsWhateverTheListOrder() throws {
        // Top level and directly under INBOX count the same; then the shorter path; then name order.
        let r = try rolesInEveryOrder([item("INBOX"), item("INBOX/Trash"), item("Trash"), item("Spam"), item("Junk"),
                                       item("Deleted Items")])
        // Deleted Items: a longer name for a role already given; Junk and Spam: the same length, name order.
        XCTAssertEqual(r, ["INBOX": .inbox, "Trash": .trash, "INBOX/Trash": .custom, "Deleted Items": .custom,
                           "Junk": .junk, "Spam": .custom])
        // Only nested candidates: none takes the role (the user's own folders), in every order.
        let nested = try rolesInEveryOrder([item("INBOX", delimiter: "."), item("INBOX.Zeta.Sent", delimiter: "."),
                                            item("INBOX.Beta.Sent", delimiter: "."), item("INBOX.Old.Projects.Sent", delimiter: ".")])
        XCTAssertEqual(nested.filter { $0.value == .sent }.count, 0)
    }

    func testSpecialUseWinsOverAnyNameWhateverTheListOrder() throws {
        let r = try rolesInEveryOrder([item("INBOX"), item("Trash"), item("Old", ["\\Trash"]), item("Sent"),
                                       item("Outgoing", ["\\Sent"]), item("Drafts")])
        XCTAssertEqual(r, ["INBOX": .inbox, "Old": .trash, "Trash": .custom, "Outgoing": .sent, "Sent": .custom, "Drafts": .drafts])
    }

    func testADotInASlashSeparatedNameIsPartOfTheName() throws {
        let r = try roles([item("INBOX"), item("Projects.Trash"), item("Mail/Old.Sent")])
        XCTAssertEqual(r["Projects.Trash"], .custom)
        XCTAssertEqual(r["Mail/Old.Sent"], .custom)
        let flat = try roles([item("INBOX", delimiter: nil), item("Work/Sent", delimiter: nil), item("Junk", delimiter: nil)])
        XCTAssertEqual(flat["Work/Sent"], .custom, "no delimiter: the whole path is one name")
        XCTAssertEqual(flat["Junk"], .junk)
    }

    func testNoSelectableFolderIsAnError() {
        XCTAssertThrowsError(try FolderMapper.map([item("[Gmail]", ["\\Noselect"]), item("Other", ["\\NonExistent"])],
                                                  provider: ProviderRegistry.custom)) { error in
            XCTAssertTrue("\(error)".hasPrefix("No email folders found"))
        }
        XCTAssertThrowsError(try FolderMapper.map([], provider: ProviderRegistry.custom))
    }

    func testModifiedUTF7NamesAreDecoded() throws {
        let list = ListItem(attributes: [], delimiter: "/", mailbox: MailboxName(raw: Array("Entw&APw-rfe".utf8)))
        let mapped = try FolderMapper.map([item("INBOX"), list], provider: ProviderRegistry.custom)
        XCTAssertEqual(mapped[1].path, "Entwürfe")
        XCTAssertEqual(mapped[1].role, .drafts)
        XCTAssertEqual(mapped[1].mailbox.raw, Array("Entw&APw-rfe".utf8), "the wire name is kept for commands")
    }

    /// Outlook.com marks its own folders with SPECIAL-USE and often keeps legacy `Deleted Items`/`Sent Items` beside
    /// them: the provider's names gave the role a second time (two Trash folders; delete went to the one first by name).
    func testProviderNamesNeverGiveARoleSpecialUseGave() throws {
        for order in [false, true] {
            var items = [item("INBOX"), item("Deleted Items"), item("Sent Items"), item("Junk Email"),
                         item("Trash", ["\\Trash"]), item("Sent", ["\\Sent"]), item("Junk", ["\\Junk"])]
            if order { items.reverse() }
            let mapped = try FolderMapper.map(items, provider: ProviderRegistry.outlook)
            for role in [FolderRole.trash, .sent, .junk] {
                XCTAssertEqual(mapped.filter { $0.role == role }.count, 1, "one \(role) folder (reversed LIST: \(order))")
            }
            let r = Dictionary(uniqueKeysWithValues: mapped.map { ($0.path, $0.role) })
            XCTAssertEqual(r["Trash"], .trash)
            XCTAssertEqual(r["Deleted Items"], .custom)
            XCTAssertEqual(r["Sent Items"], .custom)
            XCTAssertEqual(r["Junk Email"], .custom)
        }
    }

    /// Two of the provider's names for one role (Yahoo's `Bulk` and `Bulk Mail`, `Draft` and `Drafts`): one folder gets
    /// it, the same whatever the LIST order.
    func testProviderNamesGiveARoleToOneFolder() throws {
        for order in [false, true] {
            var items = [item("INBOX"), item("Bulk Mail"), item("Bulk"), item("Drafts"), item("Draft")]
            if order { items.reverse() }
            let r = try roles(items, ProviderRegistry.yahoo)
            XCTAssertEqual(r["Bulk"], .junk)
            XCTAssertEqual(r["Bulk Mail"], .custom)
            XCTAssertEqual(r["Draft"], .drafts)
            XCTAssertEqual(r["Drafts"], .custom)
        }
    }

    /// A personal namespace with a prefix (`INBOX.` with `.`, `Mail/` with `/`): the provider's names and excluded
    /// folders are taken below it (Yahoo's `INBOX.Bulk` had stayed an ordinary folder, iCloud's `INBOX.Notes` was
    /// synced), and tier 3's top level is the namespace's (`Mail/Trash` had no role: delete found no Trash).
    func testNamesAreTakenBelowTheNamespacePrefix() throws {
        let dotted = [item("INBOX", delimiter: "."), item("INBOX.Bulk", delimiter: "."), item("INBOX.Sent", delimiter: "."),
                      item("INBOX.Notes", delimiter: "."), item("INBOX.Notes.Old", delimiter: ".")]
        let yahoo = Dictionary(uniqueKeysWithValues: try FolderMapper.map(dotted, provider: ProviderRegistry.yahoo, namespacePrefix: "INBOX.")
            .map { ($0.path, $0.role) })
        XCTAssertEqual(yahoo["INBOX.Bulk"], .junk)
        XCTAssertEqual(yahoo["INBOX.Sent"], .sent)
        let icloud = try FolderMapper.map(dotted, provider: ProviderRegistry.icloud, namespacePrefix: "INBOX.").map(\.path)
        XCTAssertFalse(icloud.contains("INBOX.Notes"), "iCloud's Notes is not mail")
        XCTAssertFalse(icloud.contains("INBOX.Notes.Old"), "nor its children")
        let mail = [item("INBOX"), item("Mail", ["\\HasChildren"]), item("Mail/Sent"), item("Mail/Trash"), item("Mail/Drafts"),
                    item("Mail/Projects/Trash")]
        let r = Dictionary(uniqueKeysWithValues: try FolderMapper.map(mail, provider: ProviderRegistry.custom, namespacePrefix: "Mail/")
            .map { ($0.path, $0.role) })
        XCTAssertEqual(r["Mail/Sent"], .sent)
        XCTAssertEqual(r["Mail/Trash"], .trash)
        XCTAssertEqual(r["Mail/Drafts"], .drafts)
        XCTAssertEqual(r["Mail/Projects/Trash"], .custom, "a nested folder below the prefix is still the user's own")
        XCTAssertEqual(try roles(mail)["Mail/Trash"], .custom, "without the prefix known, Mail/ is a folder of the user's")
    }

    /// The personal namespace's prefix listed as a folder of its own (`Mail` under `Mail/`) is found, whose messages
    /// tell the sync whether it is synced; none for Courier's `INBOX.` (the Inbox), without a prefix, or for a folder
    /// that merely begins like it (`Mailing`, `Mail/Sent`).
    func testTheNamespacesRootIsFound() throws {
        let mail = try FolderMapper.map([item("INBOX"), item("Mailing"), item("Mail", ["\\HasChildren"]), item("Mail/Sent")],
                                        provider: ProviderRegistry.custom, namespacePrefix: "Mail/")
        XCTAssertEqual(FolderMapper.namespaceRoot(mail, namespacePrefix: "Mail/")?.path, "Mail")
        XCTAssertNil(FolderMapper.namespaceRoot(mail, namespacePrefix: nil))
        XCTAssertNil(FolderMapper.namespaceRoot(mail.filter { $0.path != "Mail" }, namespacePrefix: "Mail/"))
        let dotted = try FolderMapper.map([item("INBOX", delimiter: "."), item("INBOX.Sent", delimiter: ".")],
                                          provider: ProviderRegistry.custom, namespacePrefix: "INBOX.")
        XCTAssertNil(FolderMapper.namespaceRoot(dotted, namespacePrefix: "INBOX."), "the Inbox is always synced")
    }

    /// Outlook's Spanish, French, Italian and Portuguese Trash, Sent and Junk names (German and Dutch were known).
    func testOutlooksLocalizedNames() throws {
        let r = try roles([item("INBOX"), item("Elementos eliminados"), item("Elementi inviati"), item("Lixo Eletrônico")],
                          ProviderRegistry.outlook)
        XCTAssertEqual(r["Elementos eliminados"], .trash)
        XCTAssertEqual(r["Elementi inviati"], .sent)
        XCTAssertEqual(r["Lixo Eletrônico"], .junk)
        for name in ["Éléments supprimés", "Posta eliminata", "Itens Eliminados"] {
            XCTAssertEqual(try roles([item("INBOX"), item(name)])[name], .trash, name)
        }
    }

    /// A name known to have no mailbox (a ghost parent: Dovecot lists a parent deleted while it has subfolders with no
    /// `\NonExistent`) takes no role by its name or the provider's map: a ghost `Trash`, the shorter path, had taken the
    /// Trash role from the real `Deleted` that holds the mail (actions then found no Trash folder to move to).
    func testANameWithNoMailboxTakesNoRoleFromARealFolder() throws {
        let items = [item("INBOX"), item("Trash", ["\\HasChildren"]), item("Trash/Old"), item("Deleted"),
                     item("[Gmail]/Sent Mail"), item("Sent Messages")]
        XCTAssertEqual(try roles(items)["Trash"], .trash, "a mailbox: the shorter path wins")
        var r = Dictionary(uniqueKeysWithValues: try FolderMapper.map(items, provider: ProviderRegistry.custom, noMailbox: ["Trash"])
            .map { ($0.path, $0.role) })
        XCTAssertEqual(r["Trash"], .custom)
        XCTAssertEqual(r["Deleted"], .trash)
        XCTAssertEqual(r["Trash/Old"], .custom)
        // The provider's names too: a ghost `[Gmail]/Sent Mail` leaves Sent to the real `Sent Messages`.
        r = Dictionary(uniqueKeysWithValues: try FolderMapper.map(items, provider: ProviderRegistry.gmail, noMailbox: ["[Gmail]/Sent Mail"])
            .map { ($0.path, $0.role) })
        XCTAssertEqual(r["[Gmail]/Sent Mail"], .custom)
        XCTAssertEqual(r["Sent Messages"], .sent)
    }
}
