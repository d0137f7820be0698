/// An entry of an address field that is not a usable address, and why.
package struct InvalidAddress: Sendable, Hashable, CustomStringConvertible {
    /// The field it was given in.
    package var field: AddressField
    /// The entry as written.
    package var entry: String
    /// What is wrong with it.
    package var reason: String

    /// An invalid `entry` of `field`.
    package init(field: AddressField, entry: String, reason: String) {
        self.field = field
        self.entry = entry
        self.reason = reason
    }

    /// "cc: \"bob@\": the domain is empty".
    package var description: String { "\(field.rawValue): \"\(entry)\": \(reason)" }
}
