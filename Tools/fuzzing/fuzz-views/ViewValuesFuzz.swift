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
///   value reads as something that writes otherwise: a view rebuilt from it would differ from the one it came from);
/// - a best-contacts list that decodes, however damaged (out of order, an address twice, past its size), takes the
///   contacts fold's changes without a trap and stays bounded (`offers`, the last selector).
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
        // Last, so the selectors of the seeds before it keep their types.
        ("ContactTopOffers", offers),
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

    /// The check of the contacts fold's changes to a best list (`ContactTop.offer`, `freeze`) on any list a view file
    /// can hold: each of the list's first 8 addresses and 3 others offered and frozen, one at a time, at a rank above or
    /// below the list's, at capacities that make the list full, just full, one short, and at the fold's (16). Never a
    /// trap; an offer adds at most one entry and none past the larger of the list's size and the capacity; a list not
    /// full lists what is offered to it; a freeze adds or removes none; "nothing changed" means nothing did; and every
    /// list they leave writes and reads back as it is.
    @Sendable static func offers(_ bytes: [UInt8]) {
        guard let list = decode(ContactTop.self, bytes) else { return }
        let seed = FuzzCheck.seed(of: bytes)
        let rankOf = { (address: String) in
            ContactRank(sent: UInt64(address.utf8.count % 3), count: UInt64(address.utf8.count % 7), lastSeen: Timestamp(microseconds: 0))
        }
        let addresses = list.entries.prefix(8).map(\.address) + ["", "a@example.org", "\u{7F}~@z"]
        // Full, just full, one short (a list of 1,024, the most a value holds, full) and the fold's size.
        let was = list.entries.count
        for capacity in Set([1, max(1, was), min(was + 1, 1_024), 16]).sorted() {
            offer(addresses, into: list, capacity: capacity, seed: seed, rankOf: rankOf)
        }
    }

    /// `offers`' checks at one capacity.
    static func offer(_ addresses: [String], into list: ContactTop, capacity: Int, seed: UInt64, rankOf: (String) -> ContactRank) {
        for (k, address) in addresses.enumerated() {
            // Ranks above every entry (even offers) and below them (odd), so full lists take and turn away offers.
            let rank = k % 2 == 0
                ? ContactRank(sent: 1, count: UInt64.max - UInt64(k), lastSeen: Timestamp(microseconds: Int64(seed >> 1)))
                : ContactRank(sent: 0, count: UInt64(k % 4), lastSeen: Timestamp(microseconds: Int64(seed >> 40)))
            var offered = list
            let changed = offered.offer(address: address, rank: rank, capacity: capacity, rankOf: rankOf)
            let (was, now) = (list.entries.count, offered.entries.count)
            FuzzCheck.require(now <= was + 1 && now <= max(was, capacity), "an offer into a list of \(was) at capacity \(capacity) left \(now)")
            FuzzCheck.require(changed || offered == list, "an offer that changed nothing changed the list")
            if !list.isFull(capacity: capacity) {
                FuzzCheck.require(offered.entries.contains { Array($0.address.utf8) == Array(address.utf8) },
                                  "an offer into a list not full left the address out")
            }
            var frozen = list
            let froze = frozen.freeze(address: address, rank: rank, capacity: capacity)
            FuzzCheck.require(frozen.entries.count == was, "a freeze changed the list's size")
            FuzzCheck.require(froze || frozen == list, "a freeze that changed nothing changed the list")
            for changedList in [offered, frozen] {
                FuzzCheck.require(decode(ContactTop.self, encode(changedList)) == changedList, "a list offered to or frozen in does not read back")
            }
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
