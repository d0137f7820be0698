import EventModel
import FuzzSupport
import Projections

/// Fuzzes the decoders of the values the views store (`BinaryField`): what a read of a damaged or hostile view file
/// gets. The first byte chooses the type (its value modulo the number of types); the rest is the stored value.
///
/// Invariants checked for every input:
/// - decoding throws a `DecodeError` or gives a value; it never traps and never allocates more than the input can
///   hold (libFuzzer's `-malloc_limit_mb`);
/// - a value that decodes, written back, decodes to the same value, and writing that again gives the same bytes (no
///   value reads as something that writes otherwise: a view rebuilt from it would differ from the one it came from).
enum ViewValuesFuzz {
    /// One decoder per stored type, by name.
    static let decoders: [(name: String, check: @Sendable ([UInt8]) -> Void)] = [
        ("ThreadRow", roundTrip(ThreadRow.self)),
        ("ThreadRecord", roundTrip(ThreadRecord.self)),
        ("EmailRecord", roundTrip(EmailRecord.self)),
        ("MessageInfo", roundTrip(MessageInfo.self)),
        ("UnreadEmail", roundTrip(UnreadEmail.self)),
        ("CopyCount", roundTrip(CopyCount.self)),
        ("FolderCopies", roundTrip(FolderCopies.self)),
        ("FolderEntry", roundTrip(FolderEntry.self)),
        ("FolderRole", roundTrip(FolderRole.self)),
        ("Contact", roundTrip(Contact.self)),
        ("ContactTop", roundTrip(ContactTop.self)),
        ("ContactRank", roundTrip(ContactRank.self)),
        ("NotificationRecord", roundTrip(NotificationRecord.self)),
        ("NotificationSettings", roundTrip(NotificationSettings.self)),
        ("PendingWithdrawal", roundTrip(PendingWithdrawal.self)),
        ("QuietHours", roundTrip(QuietHours.self)),
        ("SyncedCopy", roundTrip(SyncedCopy.self)),
        ("FolderSyncState", roundTrip(FolderSyncState.self)),
        ("CopyLocation", roundTrip(CopyLocation.self)),
        ("ActionRecord", roundTrip(ActionRecord.self)),
        ("DraftRecord", roundTrip(DraftRecord.self)),
        ("DraftServerState", roundTrip(DraftServerState.self)),
        ("OutboxItem", roundTrip(OutboxItem.self)),
        ("AccountRecord", roundTrip(AccountRecord.self)),
        ("DiscoveryRecord", roundTrip(DiscoveryRecord.self)),
        ("DedupCopy", roundTrip(DedupCopy.self)),
    ]

    static func check(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        decoders[Int(selector) % decoders.count].check(Array(bytes.dropFirst()))
    }

    /// The check for `T`: decode, write back, decode again.
    static func roundTrip<T: BinaryField & Equatable>(_ type: T.Type) -> @Sendable ([UInt8]) -> Void {
        { bytes in
            guard let value = decode(T.self, bytes) else { return }
            let written = encode(value)
            guard let again = decode(T.self, written) else {
                FuzzCheck.fail("\(T.self) \(value) written back does not decode")
            }
            FuzzCheck.require(again == value, "\(T.self) \(value) written back decodes as \(again)")
            FuzzCheck.require(encode(again) == written, "\(T.self) \(value) writes differently the second time")
        }
    }

    static func decode<T: BinaryField>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
        bytes.withUnsafeBytes { buf -> T? in
            var r = ByteReader(buf)
            return try? T(from: &r)
        }
    }

    static func encode<T: BinaryField>(_ value: T) -> [UInt8] {
        var w = ByteWriter()
        value.write(to: &w)
        return w.bytes
    }
}
