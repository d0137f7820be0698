/// A person's address as events carry it: the spec's participant shape.
public struct EmailAddress: Hashable, Sendable, Codable, BinaryField {
    /// The display name, nil when there is none.
    public var name: String?
    /// The address, as written.
    public var email: String

    /// Creates an address.
    public init(name: String?, email: String) {
        self.name = name
        self.email = email
    }

    enum CodingKeys: String, CodingKey { case name, email }

    /// Encodes the spec's shape, with an explicit `"name": null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(email, forKey: .email)
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(name)
        w.write(email)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        name = try r.read()
        email = try r.read()
    }
}
