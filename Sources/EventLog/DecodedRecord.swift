import EventModel

/// A record decoded by `RecordDecoder.decodeTyped`: its envelope, and its typed event or why the payload did not
/// decode.
package struct DecodedRecord {
    /// The envelope.
    package var envelope: EventEnvelope
    /// The typed event, or the payload's decoding error.
    package var event: Result<DomainEvent, DecodeError>
}
