/// An event as read back from the log: its envelope and its (decompressed) payload bytes.
///
/// The payload is decoded on demand with `decode()`, so a scan that filters on the envelope never pays
/// for payloads it skips.
public struct StoredEvent: Sendable, Equatable {
    /// The envelope.
    public var envelope: EventEnvelope
    /// The payload bytes, uncompressed.
    public var payload: [UInt8]

    /// Creates a stored event.
    package init(envelope: EventEnvelope, payload: [UInt8]) {
        self.envelope = envelope
        self.payload = payload
    }

    /// Decodes the payload into a typed event (upcasting older schema versions).
    package func decode() throws(DecodeError) -> DomainEvent {
        try DomainEvent.decode(type: envelope.type, version: envelope.schemaVersion, payload: payload)
    }

    /// Decodes the payload as `P`, whatever type code the envelope carries; for tools and tests.
    package func decode<P: PayloadCodable>(as: P.Type) throws(DecodeError) -> P {
        guard envelope.schemaVersion <= P.schemaVersion else {
            throw DecodeError.unsupportedVersion(type: String(describing: P.self), version: envelope.schemaVersion,
                                                 newest: P.schemaVersion)
        }
        do {
            return try payload.withUnsafeBytes { (raw) throws(DecodeError) -> P in
                var r = ByteReader(raw)
                let p = try P(from: &r, version: envelope.schemaVersion)
                guard r.isAtEnd else { throw DecodeError.malformed("\(r.remaining) trailing payload bytes", at: r.offset) }
                return p
            }
        } catch let e as DecodeError {
            throw e
        } catch {
            throw DecodeError.malformed("\(error)", at: 0)
        }
    }
}
