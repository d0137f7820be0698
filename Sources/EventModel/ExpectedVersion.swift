/// What an append expects of its stream (optimistic concurrency).
///
/// A stream's version is the number of events in it; an empty stream has version 0.
package enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must hold exactly this many events.
    case exactly(UInt64)

    package var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exactly(let v): "version \(v)"
        }
    }
}
