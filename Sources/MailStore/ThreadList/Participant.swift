import EventModel
import Foundation

/// A thread participant in the client spec's shape: `{"name": String?, "email": String}`. It is the
/// events' own `EmailAddress` (Codable, Sendable), with the spec's JSON helpers.
public typealias Participant = EmailAddress

extension EmailAddress {
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
}
