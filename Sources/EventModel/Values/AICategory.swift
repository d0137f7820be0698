/// The client spec's AI categories.
public enum AICategory: UInt8, Sendable, CaseIterable, BinaryField, CustomStringConvertible {
    case uncategorized = 0
    case primary = 1
    case social = 2
    case promotions = 3
    case updates = 4
    case forums = 5

    public var description: String {
        switch self {
        case .uncategorized: "uncategorized"
        case .primary: "primary"
        case .social: "social"
        case .promotions: "promotions"
        case .updates: "updates"
        case .forums: "forums"
        }
    }

    /// Parses a category name, case-insensitively.
    public init?(name: String) {
        guard let c = AICategory.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = c
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        self = AICategory(rawValue: try r.readByte()) ?? .uncategorized
    }
}

extension AICategory: Codable {
    /// Encodes the category by name (`"primary"`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// Decodes a category name.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let name = try c.decode(String.self)
        guard let v = AICategory(name: name) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown category '\(name)'")
        }
        self = v
    }
}
