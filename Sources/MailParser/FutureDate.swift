import Foundation

/// Mail whose date lies in the future: a sender's wrong clock, or spam dated years ahead to stay at the top of a
/// newest-first list (where it stayed, its thread sorted by that date, until the date came). Such a date is
/// replaced by the message's arrival, as a client sorting by arrival (Gmail) would show it:
/// - a `Date:` more than ``slack`` after the topmost `Received:` header's date (when that one is a date from
///   ``earliestArrival`` on, not in the future itself: the receiving server's clock, which a wrong sender's clock does
///   not move) and, where the caller gives a fallback (the server's internal date, the mbox From_ line, the file
///   time), more than ``slack`` after that one too (so a relay whose clock is years slow does not redate good mail)
///   becomes the Received date (`DateSource.received`);
/// - any date (from the header, a Received header or the fallback) more than ``slack`` after `now` (the time it is
///   stored) becomes the fallback where that one is not in the future too, else `now` (`DateSource.none`).
/// Each with a `futureDate` warning naming both dates. ``slack`` leaves alone what a zone written wrong (up to 14 hours) or
/// a clock a few hours fast explains. The second rule depends on when a copy is stored: a message without Received
/// headers dated two days ahead keeps its date if stored after that day, and is dated by its arrival before it.
enum FutureDate {
    /// How far past its arrival a date may lie before it is taken as wrong (one day).
    static let slack: TimeInterval = 86_400
    /// A `Received:` date before this (1990-01-01) is a relay's unset clock, not an arrival.
    static let earliestArrival = Date(timeIntervalSince1970: 631_152_000)

    /// The date to keep for a message dated `date` (from `source`), or nil to keep it: see the type's rules.
    /// `received`: the topmost `Received:` header's date; `now`: nil when the caller gives no present (no second rule).
    static func corrected(_ date: Date, source: DateSource, received: Date?, fallback: Date?,
                          now: Date?) -> (date: Date, source: DateSource, warning: String)? {
        guard source != .none else { return nil }
        if source == .header, let r = received, r >= earliestArrival, date.timeIntervalSince(r) > slack,
           fallback.map({ date.timeIntervalSince($0) > slack }) ?? true, now.map({ r.timeIntervalSince($0) <= slack }) ?? true {
            return (r, .received, "Date \(stamp(date)) after its arrival \(stamp(r)): arrival kept")
        }
        guard let now, date.timeIntervalSince(now) > slack else { return nil }
        if let f = fallback, f.timeIntervalSince(now) <= slack {
            return (f, .fallback, "date \(stamp(date)) in the future: arrival \(stamp(f)) kept")
        }
        return (now, .none, "date \(stamp(date)) in the future: time stored kept")
    }

    /// A date as UTC seconds (`2038-01-19T03:14:07Z`), within the years 1-9999.
    private static func stamp(_ d: Date) -> String {
        Date(timeIntervalSince1970: max(-62_135_596_800, min(253_402_300_799, d.timeIntervalSince1970.rounded(.down))))
            .formatted(.iso8601)
    }
}
