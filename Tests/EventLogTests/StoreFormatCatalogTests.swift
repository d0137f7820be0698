import EventLog
import EventModel
import XCTest

/// The store format names the event catalog its builds write: a build reads only stores of a format it knows, so an
/// event of a type or schema it cannot read never reaches its folds (a format 4 build set such events aside and showed
/// a newer build's store without their mail, exit 0).
final class StoreFormatCatalogTests: XCTestCase {
    /// Every event type's newest schema version in store format 9 (format 8's, with `EmailReceived` at 3).
    static let format9: [UInt16: UInt16] = format8.merging([30: 3]) { _, b in b }

    /// Every event type's newest schema version in store format 8 (format 7's, with `DraftSaved` at 2).
    static let format8: [UInt16: UInt16] = format7.merging([60: 2]) { _, b in b }

    /// Every event type's newest schema version in store format 7 (format 6's, with `FolderSyncCheckpointed` at 3 and
    /// `SendFailed` at 2).
    static let format7: [UInt16: UInt16] = format6.merging([23: 3, 65: 2]) { _, b in b }

    /// Every event type's newest schema version in store format 6 (format 5's, with `FolderSyncCheckpointed` at 2).
    static let format6: [UInt16: UInt16] = format5.merging([23: 2]) { _, b in b }

    /// Every event type's newest schema version in store format 5.
    static let format5: [UInt16: UInt16] = [
        1: 1,                                   // StoreInitialized
        10: 2, 11: 1, 12: 2,                    // AccountAdded, AccountRemoved, AccountSettingsDiscovered
        20: 1, 21: 1, 22: 1, 23: 1,             // FolderDiscovered, FolderRemoved, UIDValidityChanged, FolderSyncCheckpointed
        30: 2, 31: 1, 32: 1, 33: 2, 34: 1,      // EmailReceived, FlagsChanged, EmailExpunged, EmailCategorized, SenderCategoryLearned
        40: 1, 41: 1, 42: 1, 43: 1, 44: 1, 45: 1, 46: 1,  // the thread actions
        50: 1, 51: 1, 52: 1, 53: 1, 54: 1, 55: 1,          // outcomes and compensations
        60: 1, 61: 1, 62: 1, 63: 1, 64: 1, 65: 1, 66: 1, 67: 1, 68: 1, 69: 1,  // composer and outbox
        70: 1, 71: 1, 72: 2, 73: 1,             // NotificationDelivered, -PreferenceChanged, -Decided, -Withdrawn
    ]

    /// The newest schema version this build reads of `type`: what decoding a version past any says it reads up to.
    func newestSchema(of type: EventType) -> UInt16? {
        do {
            _ = try DomainEvent.decode(type: type, version: .max, payload: [])
        } catch {
            if case .unsupportedVersion(_, _, let newest) = error { return newest }
        }
        return nil
    }

    func testTheStoreFormatNamesTheEventCatalogItsBuildsWrite() {
        XCTAssertEqual(StoreDirectory.formatVersion, 9, "a new format: record its catalog here (a dictionary beside format5)")
        var catalog: [UInt16: UInt16] = [:]
        for (type, name) in EventType.catalog {
            guard let newest = newestSchema(of: type) else { return XCTFail("\(name): no schema version read") }
            catalog[type.rawValue] = newest
        }
        for (code, version) in catalog.sorted(by: { $0.key < $1.key }) where StoreFormatCatalogTests.format9[code] != version {
            XCTFail("\(EventType(rawValue: code).name) is at schema \(version), format 9 holds it at "
                    + "\(StoreFormatCatalogTests.format9[code].map(String.init) ?? "none"): a build of format 9 would set aside "
                    + "events it cannot read; bump StoreDirectory.formatVersion and record the new catalog here")
        }
        for code in StoreFormatCatalogTests.format9.keys where catalog[code] == nil {
            XCTFail("type \(code) is in format 9's catalog but not this build's")
        }
    }
}
