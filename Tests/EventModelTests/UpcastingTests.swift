import EventModel
import XCTest

/// Version 1 of a payload, as an older build wrote it.
struct ContactSeenV1: PayloadCodable {
    static let schemaVersion: UInt16 = 1
    var email: String
    var count: UInt64
    func encode(to w: inout ByteWriter) {
        w.write(email)
        w.write(count)
    }
    init(email: String, count: UInt64) {
        self.email = email
        self.count = count
    }
    init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        email = try r.read()
        count = try r.read()
    }
}

/// Version 2 adds a display name (default nil) and reads version 1 by upcasting.
struct ContactSeenV2: PayloadCodable {
    static let schemaVersion: UInt16 = 2
    var email: String
    var count: UInt64
    var name: String?
    func encode(to w: inout ByteWriter) {
        w.write(email)
        w.write(count)
        w.write(name)
    }
    init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        email = try r.read()
        count = try r.read()
        name = version >= 2 ? try r.read() : nil
    }
}

final class UpcastingTests: XCTestCase {
    func envelope(version: UInt16) -> EventEnvelope {
        EventEnvelope(sequence: 1, id: .generate(), type: EventType(rawValue: 999), schemaVersion: version,
                      recordedAt: .now, occurredAt: .now, account: "a", stream: "s", causationID: nil,
                      correlationID: nil, actor: .system)
    }

    func testV1EventReadByV2Decoder() throws {
        var w = ByteWriter()
        ContactSeenV1(email: "alice@example.com", count: 7).encode(to: &w)
        let stored = StoredEvent(envelope: envelope(version: 1), payload: w.bytes)
        let v2 = try stored.decode(as: ContactSeenV2.self)
        XCTAssertEqual(v2.email, "alice@example.com")
        XCTAssertEqual(v2.count, 7)
        XCTAssertNil(v2.name)
    }

    /// A `SendFailed` of schema 1 (before `serverFailure`) reads as a failure the server answered: it pauses no account.
    func testASendFailedOfSchema1ReadsAsNoServerFailure() throws {
        var w = ByteWriter()
        w.write("d1")
        w.write("421 4.3.2 busy")
        w.write(false)
        w.write(Optional(Timestamp(microseconds: 5)))
        let decoded = try DomainEvent.decode(type: .sendFailed, version: 1, payload: w.bytes)
        XCTAssertEqual(decoded, .sendFailed(SendFailed(draftID: "d1", reason: "421 4.3.2 busy", permanent: false,
                                                       retryAt: Timestamp(microseconds: 5), serverFailure: false)))
    }

    func testV2EventIsRefusedByV1Decoder() {
        var w = ByteWriter()
        var v2 = try! ContactSeenV2.decodeV1(email: "b@example.com")
        v2.name = "Bob"
        v2.encode(to: &w)
        let stored = StoredEvent(envelope: envelope(version: 2), payload: w.bytes)
        XCTAssertThrowsError(try stored.decode(as: ContactSeenV1.self)) { error in
            XCTAssertEqual(error as? DecodeError, .unsupportedVersion(type: "ContactSeenV1", version: 2, newest: 1))
        }
        XCTAssertEqual(try stored.decode(as: ContactSeenV2.self).name, "Bob")
    }
}

extension ContactSeenV2 {
    static func decodeV1(email: String) throws -> ContactSeenV2 {
        var w = ByteWriter()
        ContactSeenV1(email: email, count: 1).encode(to: &w)
        return try w.bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            return try ContactSeenV2(from: &r, version: 1)
        }
    }
}

/// `EmailCategorized` version 1 (email, category, classifier) reads as version 2 with version 0 and no rule.
final class EmailCategorizedUpcastTests: XCTestCase {
    func testVersion1ReadsWithDefaults() throws {
        var w = ByteWriter()
        w.write("e1"); w.write(AICategory.updates); w.write("model-x")
        let decoded = try DomainEvent.decode(type: .emailCategorized, version: 1, payload: w.bytes)
        XCTAssertEqual(decoded, .emailCategorized(EmailCategorized(emailID: "e1", category: .updates, classifier: "model-x",
                                                                   classifierVersion: 0, rule: "")))
        XCTAssertEqual(decoded.schemaVersion, 2, "written again, it is written at the current version")
    }

    func testVersion2RoundTrips() throws {
        let p = EmailCategorized(emailID: "e2", category: .forums, classifier: "rules", classifierVersion: 1, rule: "forums.list-post: <x>")
        var w = ByteWriter()
        DomainEvent.emailCategorized(p).encodePayload(to: &w)
        XCTAssertEqual(try DomainEvent.decode(type: .emailCategorized, version: 2, payload: w.bytes), .emailCategorized(p))
        XCTAssertThrowsError(try DomainEvent.decode(type: .emailCategorized, version: 3, payload: w.bytes))
    }
}

/// `AccountAdded` version 1 (no display name) reads as version 2 with none; `AccountSettingsDiscovered` round-trips.
final class AccountAddedUpcastTests: XCTestCase {
    func testVersion1ReadsWithoutADisplayName() throws {
        var p = AccountAdded(name: "work", email: "bob@example.org", provider: "custom", imapHost: "imap.example.org", imapPort: 993,
                             imapSecurity: "tls", auth: "plain", username: "bob@example.org", credentialSource: "file:/p",
                             smtpHost: "smtp.example.org", smtpPort: 587, smtpSecurity: "starttls", displayName: "Bob Example")
        var w = ByteWriter()
        DomainEvent.accountAdded(p).encodePayload(to: &w)
        XCTAssertEqual(try DomainEvent.decode(type: .accountAdded, version: 2, payload: w.bytes), .accountAdded(p))
        // Version 1 is the same bytes without the last field (an absent optional is one byte).
        var v1 = ByteWriter()
        p.displayName = nil
        DomainEvent.accountAdded(p).encodePayload(to: &v1)
        let decoded = try DomainEvent.decode(type: .accountAdded, version: 1, payload: Array(v1.bytes.dropLast()))
        XCTAssertEqual(decoded, .accountAdded(p))
        XCTAssertEqual(decoded.schemaVersion, 2)
        XCTAssertThrowsError(try DomainEvent.decode(type: .accountAdded, version: 3, payload: w.bytes))
    }

    func testDiscoveryRoundTrips() throws {
        let p = AccountSettingsDiscovered(name: "a", domain: "example.org", imapHost: "imap.example.org", imapPort: 993, imapSecurity: "tls",
                                          imapSource: "dns-srv", manual: ["smtpPort"], steps: ["registry:nothing", "dns-srv:found"],
                                          cachedFrom: 12)
        var w = ByteWriter()
        DomainEvent.accountSettingsDiscovered(p).encodePayload(to: &w)
        // Version 1 is the same bytes without the autoconfig's logins and methods (two absent optionals, two empty lists).
        XCTAssertEqual(try DomainEvent.decode(type: .accountSettingsDiscovered, version: 1, payload: Array(w.bytes.dropLast(4))),
                       .accountSettingsDiscovered(p))
        var v2 = p
        (v2.imapUsernameTemplate, v2.imapAuthentication) = ("%EMAILLOCALPART%", ["OAuth2", "password-cleartext"])
        (v2.smtpUsernameTemplate, v2.smtpAuthentication) = ("%EMAILADDRESS%", ["password-cleartext"])
        var w2 = ByteWriter()
        DomainEvent.accountSettingsDiscovered(v2).encodePayload(to: &w2)
        XCTAssertEqual(try DomainEvent.decode(type: .accountSettingsDiscovered, version: 2, payload: w2.bytes), .accountSettingsDiscovered(v2))
        XCTAssertEqual(EventType(name: "AccountSettingsDiscovered"), .accountSettingsDiscovered)
        XCTAssertEqual(EventType.accountSettingsDiscovered.rawValue, 12)
    }
}

/// The catalog's own upcasts: events written by an older build still read, with the newer fields absent.
final class CatalogUpcastingTests: XCTestCase {
    /// An example payload's bytes at the current version, written with `strip`'s field at its absent value, less
    /// that field's `trailing` bytes: what version 1 wrote.
    func versionOne(_ event: DomainEvent, trailing: Int) -> [UInt8] {
        var w = ByteWriter()
        event.encodePayload(to: &w)
        return Array(w.bytes.dropLast(trailing))
    }

    func testEmailReceivedVersion1ReadsWithoutAnArrivalTime() throws {
        guard case .emailReceived(var p) = try XCTUnwrap(DomainEvent.examples.first { $0.type == .emailReceived }) else { return XCTFail() }
        XCTAssertNotNil(p.receivedAt, "the example sets every field")
        p.receivedAt = nil
        p.gmailMessageID = nil
        let v1 = versionOne(.emailReceived(p), trailing: 2)
        XCTAssertEqual(try DomainEvent.decode(type: .emailReceived, version: 1, payload: v1), .emailReceived(p))
        XCTAssertThrowsError(try DomainEvent.decode(type: .emailReceived, version: 2, payload: v1), "version 2 has the field")
    }

    func testEmailReceivedVersion2ReadsWithoutGmailsMessageID() throws {
        guard case .emailReceived(var p) = try XCTUnwrap(DomainEvent.examples.first { $0.type == .emailReceived }) else { return XCTFail() }
        XCTAssertNotNil(p.gmailMessageID, "the example sets every field")
        XCTAssertEqual(EmailReceived.schemaVersion, 3)
        p.gmailMessageID = nil
        let v2 = versionOne(.emailReceived(p), trailing: 1)
        XCTAssertEqual(try DomainEvent.decode(type: .emailReceived, version: 2, payload: v2), .emailReceived(p))
        XCTAssertThrowsError(try DomainEvent.decode(type: .emailReceived, version: 3, payload: v2), "version 3 has the field")
    }

    func testNotificationDecidedVersion1ReadsWithAnUnknownMessage() throws {
        guard case .notificationDecided(var p) = try XCTUnwrap(DomainEvent.examples.first { $0.type == .notificationDecided }) else {
            return XCTFail()
        }
        XCTAssertFalse(p.messageKey.isEmpty, "the example sets every field")
        XCTAssertEqual(NotificationDecided.schemaVersion, 2)
        p.messageKey = ""
        let v1 = versionOne(.notificationDecided(p), trailing: 1)
        XCTAssertEqual(try DomainEvent.decode(type: .notificationDecided, version: 1, payload: v1), .notificationDecided(p))
        XCTAssertThrowsError(try DomainEvent.decode(type: .notificationDecided, version: 2, payload: v1), "version 2 has the field")
    }
}
