import Foundation
import MailStore

/// The JSON form of a stored event, one per line in `mailstore log --json`.
struct EventJSON: Encodable {
    let event: StoredEvent
    let decoded: DomainEvent?
    let error: String?

    init(_ event: StoredEvent) {
        self.event = event
        do {
            decoded = try event.decode()
            error = nil
        } catch {
            decoded = nil
            self.error = "\(error)"
        }
    }

    enum CodingKeys: String, CodingKey {
        case seq, id, type, version, recordedAt, occurredAt, account, stream, actor, causationId, correlationId, summary,
             payload, decodeError
    }

    func encode(to encoder: any Encoder) throws {
        let e = event.envelope
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(e.sequence, forKey: .seq)
        try c.encode(e.id, forKey: .id)
        try c.encode(e.type.name, forKey: .type)
        try c.encode(e.schemaVersion, forKey: .version)
        try c.encode(e.recordedAt, forKey: .recordedAt)
        try c.encode(e.occurredAt, forKey: .occurredAt)
        try c.encode(e.account, forKey: .account)
        try c.encode(e.stream, forKey: .stream)
        try c.encode(e.actor.description, forKey: .actor)
        try c.encode(e.causationID, forKey: .causationId)
        try c.encode(e.correlationID, forKey: .correlationId)
        if let decoded {
            try c.encode(decoded.summary, forKey: .summary)
            if let p = decoded.payloadValue { try c.encode(AnyEncodable(p), forKey: .payload) }
            else { try c.encodeNil(forKey: .payload) }
        } else {
            try c.encode(error, forKey: .decodeError)
        }
    }

    /// A JSON encoder for one-line output.
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}

/// Wraps any `Encodable` existential.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
