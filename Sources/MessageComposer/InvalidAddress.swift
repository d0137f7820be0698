/// An entry of an address field that is not a usable address, and why.
public struct InvalidAddress: Sendable, Hashable, CustomStringConvertible {
    /// The field it was given in.
    public var field: AddressField
    /// The entry as written.
    public var entry: String
    /// What is wrong with it.
    public var reason: String

    /// An invalid `entry` of `field`.
    public init(field: AddressField, entry: String, reason: String) {
        self.field = field
        self.entry = entry
        self.reason = reason
    }

    /// "cc: \"bob@\": the domain is empty".
    public var description: String { "\(field.rawValue): \"\(entry)\": \(reason)" }
}
