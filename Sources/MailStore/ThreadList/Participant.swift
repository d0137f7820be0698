import EventModel
import Foundation

/// A thread participant in the client spec's shape: `{"name": String?, "email": String}`.
public struct Participant: Codable, Sendable, Hashable {
    /// The display name, nil when unknown.
    public var name: String?
    /// The address.
    public var email: String

    /// Creates a participant.
    public init(name: String?, email: String) {
        self.name = name
        self.email = email
    }

    enum CodingKeys: String, CodingKey { case name, email }

    /// Encodes with an explicit `"name": null`, as the spec's example shows.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(email, forKey: .email)
    }

    /// Decodes the spec's JSON array; nil, empty or malformed JSON gives `[]` (the row shows "Unknown").
    public static func decode(from json: String?) -> [Participant] {
        guard let json, !json.isEmpty, let data = json.data(using: .utf8),
              let list = try? JSONDecoder().decode([Participant].self, from: data) else { return [] }
        return list
    }

    /// Encodes participants as the spec's JSON array (most recent sender first), keys in the spec's
    /// order (`name`, then `email`, every time); round-trips `decode`.
    public static func encode(_ participants: [Participant]) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes]
        func quoted(_ s: String) -> String {
            (try? e.encode(s)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        }
        let items = participants.map { p in
            "{\"name\":\(p.name.map(quoted) ?? "null"),\"email\":\(quoted(p.email))}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    init(_ a: EmailAddress) {
        self.init(name: a.name, email: a.email)
    }
}
