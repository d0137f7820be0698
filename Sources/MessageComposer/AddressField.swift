/// The header field an address was given for.
package enum AddressField: String, Sendable, Hashable, CaseIterable {
    /// `From`.
    case from
    /// `To`.
    case to
    /// `Cc`.
    case cc
    /// `Bcc` (envelope only).
    case bcc
}
