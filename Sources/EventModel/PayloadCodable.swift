/// A payload type with a versioned compact binary form.
///
/// Upcasting: `init(from:version:)` reads every schema version ever written, not only the current
/// one, filling fields that older versions lacked with their documented defaults. A payload is only
/// ever written at `schemaVersion`.
package protocol PayloadCodable: Sendable, Equatable, Encodable {
    /// The schema version this build writes.
    static var schemaVersion: UInt16 { get }
    /// Writes the payload at `schemaVersion`.
    func encode(to writer: inout ByteWriter)
    /// Reads a payload written at `version` (1...schemaVersion).
    init(from reader: inout ByteReader, version: UInt16) throws(DecodeError)
}
