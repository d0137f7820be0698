/// Why bytes could not be decoded as an event record or payload.
@usableFromInline package enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes end before the value does.
    case truncated(at: Int)
    /// The bytes are there but do not form a valid value.
    case malformed(String, at: Int)
    /// The record or payload was written by a newer schema than this build knows.
    case unsupportedVersion(type: String, version: UInt16, newest: UInt16)

    @usableFromInline package var description: String {
        switch self {
        case .truncated(let at):
            return "record truncated at byte \(at): the stored bytes are incomplete or corrupt; run `mailstore verify`"
        case .malformed(let what, let at):
            return "malformed record at byte \(at): \(what); run `mailstore verify`"
        case .unsupportedVersion(let type, let version, let newest):
            return "\(type) schema version \(version) is newer than this build reads (up to \(newest)): upgrade mailstore"
        }
    }
}
