/// One header field as it appeared in the message: the name as written and
/// the unfolded, trimmed value (not RFC 2047 decoded).
package struct HeaderField: Sendable, Hashable, Codable {
    /// The field name as written (compare case-insensitively).
    package var name: String
    /// The unfolded value with leading and trailing whitespace removed.
    package var value: String

    /// Creates a header field.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether the field's name equals `other`, ignoring ASCII case.
    package func hasName(_ other: String) -> Bool {
        ASCII.equalsIgnoringCase(name, other)
    }
}
