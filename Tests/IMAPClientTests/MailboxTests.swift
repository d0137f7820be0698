import IMAPClient
import IMAPProtocol
import XCTest

/// LIST, CREATE, DELETE and SELECT against the real server.
final class MailboxTests: IMAPTestCase {
    func testListReportsTheSpecialUseFolders() throws {
        let imap = try loggedIn()
        let items = try imap.list()
        var roles: [SpecialUse: String] = [:]
        for item in items {
            if let role = item.specialUse { roles[role] = item.mailbox.name }
        }
        XCTAssertEqual(roles, [.sent: "Sent", .drafts: "Drafts", .trash: "Trash", .junk: "Junk", .archive: "Archive"])
        XCTAssertTrue(items.contains { $0.mailbox.isInbox })
        XCTAssertTrue(items.allSatisfy { $0.delimiter == "/" })
    }

    func testARecreatedMailboxHasANewUIDValidity() throws {
        let imap = try loggedIn()
        let name = MailboxName("Projects/Entwürfe 2026")
        try imap.create(name)
        XCTAssertTrue(try imap.list().contains { $0.mailbox == name })
        let first = try imap.select(name)
        XCTAssertEqual(first.exists, 0)
        _ = try imap.select(.inbox)
        try imap.delete(name)
        XCTAssertFalse(try imap.list().contains { $0.mailbox == name })
        XCTAssertThrowsError(try imap.select(name)) { error in
            guard case .commandFailed("SELECT", "NO", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        try imap.create(name)
        let second = try imap.select(name)
        XCTAssertNotEqual(first.uidValidity, second.uidValidity)
        XCTAssertThrowsError(try imap.create(name)) { error in
            guard case .commandFailed("CREATE", "NO", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
    }

    func testSelectReportsTheMailboxState() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("one", ["\\Seen"]), ("two", []), ("three", ["\\Flagged", "$Forwarded"])])
        XCTAssertEqual(uids, [1, 2, 3])
        let inbox = try imap.select(.inbox)
        XCTAssertEqual(inbox.exists, 3)
        XCTAssertEqual(inbox.uidNext, 4)
        XCTAssertGreaterThan(inbox.uidValidity, 0)
        XCTAssertNotNil(inbox.highestModSeq)
        XCTAssertFalse(inbox.readOnly)
        XCTAssertTrue(inbox.flags.contains("$Forwarded"))
        XCTAssertEqual(inbox.permanentFlags?.last, "\\*")
        XCTAssertTrue(inbox.vanished.isEmpty)
        XCTAssertTrue(inbox.changed.isEmpty)

        let examined = try imap.select(.inbox, readOnly: true, condstore: false)
        XCTAssertTrue(examined.readOnly)
        XCTAssertEqual(examined.uidValidity, inbox.uidValidity)
    }

    func testAReadOnlyFolderSelectsReadOnly() throws {
        let imap = try loggedIn()
        try server.readOnly(user: user, folder: "Archive")
        addTeardownBlock { [server, user] in try? server?.readWrite(user: user, folder: "Archive") }
        XCTAssertTrue(try imap.select("Archive").readOnly)
        XCTAssertThrowsError(try imap.append(to: "Archive", message: message("refused"))) { error in
            guard case .commandFailed("APPEND", "NO", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        try server.readWrite(user: user, folder: "Archive")
        XCTAssertFalse(try imap.select("Archive").readOnly)
    }

    func testQResyncSelectNeedsEnableFirst() throws {
        let imap = try loggedIn()
        XCTAssertThrowsError(try imap.select(.inbox, qresync: QResyncParameters(uidValidity: 1, modSeq: 1))) { error in
            guard case .commandFailed("SELECT", "NOT SENT", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        XCTAssertNoThrow(try imap.noop())
    }
}
