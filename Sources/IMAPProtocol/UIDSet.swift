/// A set of UIDs (or message sequence numbers) in IMAP sequence-set form: `1:5,7,9:*`.
///
/// `*` stands for the largest UID in the mailbox, which only the server knows; it is kept as
/// the marker ``Bound/star``, ordered after every number. The set is always canonical: ranges
/// sorted, overlapping and adjacent ranges merged, so equal sets compare equal and
/// ``description`` is the shortest form.
package struct UIDSet: Hashable, Sendable, CustomStringConvertible {
    /// One end of a range.
    package enum Bound: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// A UID.
        case uid(UInt32)
        /// `*`: the largest UID in use.
        case star

        /// The position of the bound on one line where `*` follows every number.
        var key: UInt64 {
            switch self {
            case .uid(let v): return UInt64(v)
            case .star: return UInt64(UInt32.max) + 1
            }
        }

        init(key: UInt64) {
            self = key > UInt64(UInt32.max) ? .star : .uid(UInt32(truncatingIfNeeded: key))
        }

        /// The IMAP wire form.
        package var description: String {
            switch self {
            case .uid(let v): return String(v)
            case .star: return "*"
            }
        }
    }

    /// A closed range `lower:upper`, with `lower <= upper`.
    package struct Range: Hashable, Sendable, CustomStringConvertible {
        /// The smaller end.
        package let lower: Bound
        /// The larger end.
        package let upper: Bound

        /// The range between `a` and `b`, in either order (IMAP allows `9:3`).
        package init(_ a: Bound, _ b: Bound) {
            if a <= b {
                lower = a
                upper = b
            } else {
                lower = b
                upper = a
            }
        }

        /// The range of the given UIDs.
        package init(_ range: ClosedRange<UInt32>) {
            self.init(.uid(range.lowerBound), .uid(range.upperBound))
        }

        /// The IMAP wire form.
        package var description: String {
            lower == upper ? lower.description : "\(lower):\(upper)"
        }
    }

    /// The canonical ranges, ascending and disjoint.
    package private(set) var ranges: [Range]

    /// The empty set (which cannot be sent in a command).
    package init() { ranges = [] }

    /// The set of one UID.
    package init(_ uid: UInt32) { ranges = [Range(.uid(uid), .uid(uid))] }

    /// The set of a range of UIDs.
    package init(_ range: ClosedRange<UInt32>) { ranges = [Range(range)] }

    /// The set of the given UIDs, in any order, duplicates allowed.
    package init(_ uids: some Sequence<UInt32>) {
        self.init(ranges: uids.map { Range(.uid($0), .uid($0)) })
    }

    /// The union of the given ranges.
    package init(ranges: some Sequence<Range>) {
        self.ranges = UIDSet.canonical(Array(ranges))
    }

    /// `uid:*`: every UID from `uid` up to the largest in use.
    package static func from(_ uid: UInt32) -> UIDSet { UIDSet(ranges: [Range(.uid(uid), .star)]) }

    /// `1:*`: every message.
    package static let all = UIDSet.from(1)

    /// Whether the set has no members.
    package var isEmpty: Bool { ranges.isEmpty }

    /// Whether the set involves `*`.
    package var containsStar: Bool { ranges.last?.upper == .star }

    /// The smallest UID in the set, if it has a numeric one.
    package var first: UInt32? {
        guard let r = ranges.first, case .uid(let v) = r.lower else { return nil }
        return v
    }

    /// How many UIDs the set holds, or nil when it involves `*` (whose value only the server knows).
    package var count: Int? {
        if containsStar { return nil }
        var total = 0
        for r in ranges { total += Int(r.upper.key - r.lower.key) + 1 }
        return total
    }

    /// Whether `uid` is in the set. `n:*` holds every UID from `n` up; a lone `*` holds no
    /// number this side can name.
    package func contains(_ uid: UInt32) -> Bool {
        let key = UInt64(uid)
        var lo = 0
        var hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upper.key < key {
                lo = mid + 1
            } else {
                hi = mid
            }
        }
        return lo < ranges.count && ranges[lo].lower.key <= key
    }

    /// Adds `uid`.
    package mutating func insert(_ uid: UInt32) { formUnion(UIDSet(uid)) }

    /// Adds the members of `other`.
    package mutating func formUnion(_ other: UIDSet) { ranges = UIDSet.canonical(ranges + other.ranges) }

    /// The members of both sets.
    package func union(_ other: UIDSet) -> UIDSet {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    /// The set with `*` replaced by `largest` (the mailbox's highest UID).
    package func resolvingStar(to largest: UInt32) -> UIDSet {
        UIDSet(ranges: ranges.map { r in
            func resolve(_ b: Bound) -> Bound { b == .star ? .uid(largest) : b }
            return Range(resolve(r.lower), resolve(r.upper))
        })
    }

    /// The UIDs of the ranges that do not involve `*`, ascending, produced lazily.
    package var uids: some Sequence<UInt32> {
        ranges.lazy.compactMap { r -> ClosedRange<UInt32>? in
            guard case .uid(let a) = r.lower, case .uid(let b) = r.upper else { return nil }
            return a...b
        }.joined()
    }

    /// The set in sequence-set syntax, e.g. `1:5,7,9:*`; empty for the empty set.
    package var description: String { ranges.map(\.description).joined(separator: ",") }

    /// The set cut, in ascending order, into sets whose wire forms are each at most `maxWireBytes` long (a range
    /// is never cut, and one is at most 21 bytes: a part holds at least one range). One part, the set itself,
    /// when it fits; none for the empty set. What a client sends to stay within a server's command line
    /// (RFC 7162 section 4: approximately 8192 octets).
    package func parts(maxWireBytes: Int) -> [UIDSet] {
        var out: [UIDSet] = []
        var part: [Range] = []
        var bytes = 0
        for r in ranges {
            let n = r.description.utf8.count
            if !part.isEmpty && bytes + 1 + n > maxWireBytes {
                out.append(UIDSet(canonicalRanges: part))
                part = []
                bytes = 0
            }
            bytes += part.isEmpty ? n : 1 + n
            part.append(r)
        }
        if !part.isEmpty { out.append(UIDSet(canonicalRanges: part)) }
        return out
    }

    /// A set of ranges already canonical (ascending, disjoint, not adjacent).
    private init(canonicalRanges: [Range]) { ranges = canonicalRanges }

    static func canonical(_ input: [Range]) -> [Range] {
        guard input.count > 1 else { return input }
        let sorted = input.sorted { $0.lower.key < $1.lower.key }
        var out: [Range] = []
        out.reserveCapacity(sorted.count)
        var low = sorted[0].lower.key
        var high = sorted[0].upper.key
        for r in sorted.dropFirst() {
            if r.lower.key <= high + 1 {
                high = Swift.max(high, r.upper.key)
            } else {
                out.append(Range(Bound(key: low), Bound(key: high)))
                low = r.lower.key
                high = r.upper.key
            }
        }
        out.append(Range(Bound(key: low), Bound(key: high)))
        return out
    }
}
