/// Where `ParsedMessage.date` came from.
package enum DateSource: UInt8, Sendable, Hashable, Codable {
    /// The `Date:` header.
    case header
    /// The topmost parseable `Received:` header (after its last `;`).
    case received
    /// The caller's `fallbackDate` (for example an mbox From_ line date).
    case fallback
    /// No date could be determined.
    case none
}
