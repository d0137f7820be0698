/// One header field as it appeared in the message: the name as written and
/// the unfolded, trimmed value (not RFC 2047 decoded).
public struct HeaderField: Sendable, Hashable, Codable {
    /// The field name as written (compare case-insensitively).
    public var name: String
    /// The unfolded value with leading and trailing whitespace removed.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether the field's name equals `other`, ignoring ASCII case.
    public func hasName(_ other: String) -> Bool {
        ASCII.equalsIgnoringCase(name, other)
    }
}
