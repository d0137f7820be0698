import Foundation
import MailStore

/// Writes every contact of some accounts, most frequent first (`project --view contacts --all`), a page at a
/// time: memory holds at most twice a page, whatever an account's size (the whole list had been held and sorted
/// at once). The JSON is byte for byte what encoding the rows at once gives: `[{"account":…,"contacts":[…]}]`.
struct ContactListing {
    /// The contacts of a page by default. Each page visits every contact of the account and holds at most twice
    /// this many (~100 bytes each): ~10 MB, and one pass over the account's contacts per 50,000 of them.
    static let defaultPageSize = 50_000
    /// The contacts of a page.
    var pageSize = ContactListing.defaultPageSize
    /// JSON, or lines for a terminal.
    let json: Bool
    /// A page of an account's contacts after a position (count, address), at most `limit`: `MailStore.contactsPage`.
    let page: (_ account: String, _ after: (count: UInt64, address: String)?, _ limit: Int) throws
        -> (contacts: [Contact], total: Int, more: Bool)

    /// Writes the contacts of `accounts`, in order, through `emit`.
    func write(accounts: [String], _ emit: (Data) -> Void) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if json { emit(Data("[".utf8)) }
        for (i, account) in accounts.enumerated() {
            var after: (count: UInt64, address: String)?
            var written = 0
            repeat {
                let p = try page(account, after, max(1, pageSize))
                if after == nil {
                    if json {
                        emit(Data(((i > 0 ? "," : "") + #"{"account":"#).utf8))
                        emit(JSONText.data(try e.encode(account)))
                        emit(Data(#","contacts":["#.utf8))
                    } else {
                        emit(Data("Contacts of \(TerminalSanitiser.line(account)): \(p.total)\n".utf8))
                    }
                }
                for c in p.contacts {
                    if json {
                        if written > 0 { emit(Data(",".utf8)) }
                        emit(JSONText.data(try e.encode(c)))
                    } else {
                        emit(Data((ContactListing.line(c) + "\n").utf8))
                    }
                    written += 1
                }
                after = p.more ? p.contacts.last.map { ($0.count, $0.address) } : nil
            } while after != nil
            if json { emit(Data("]}".utf8)) }
        }
        if json { emit(Data("]\n".utf8)) }
    }

    /// A contact's line for a terminal (sanitised).
    static func line(_ c: Contact) -> String {
        "  " + ThreadRow.fit(EmailAddress(name: c.name, email: c.address).readable.displayed, 48)
            + "  \(Counted.of(c.count, "message")), \(c.sent) from them, last \(c.lastSeen.iso8601)"
    }
}
