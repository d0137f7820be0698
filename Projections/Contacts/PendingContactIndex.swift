import EventModel

/// A contact's prefix-index and best-list work deferred to the end of the batch (or to its next name change):
/// the tokens it is found by and its latest rank.
///
/// Folding each occurrence of an address wrote every token's index entry and offered the contact to every
/// short prefix's list, once per message; a batch of ~3,300 generated messages holds ~7,800 address occurrences
/// of ~1,200 contacts. Writing each contact's entries once, with its last rank, leaves the same tables: an index
/// entry keeps the last rank written, and since ranks only improve, a list offered only each contact's last rank
/// ends as a list offered every rank on the way (`ContactTop`: a full list is the top of the last ranks).
struct PendingContactIndex {
    var account: String
    /// The lowercased address.
    var address: String
    var tokens: Set<String>
    var rank: ContactRank
}
