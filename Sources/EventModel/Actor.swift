/// Who caused an event.
public enum Actor: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// The sync engine, reporting what a server said.
    case sync = 1
    /// The user, through the CLI or an embedding app.
    case user = 2
    /// mailstore itself (maintenance, compensations it decides on its own, imports).
    case system = 3

    public var description: String {
        switch self {
        case .sync: "sync"
        case .user: "user"
        case .system: "system"
        }
    }

    /// Parses `sync`, `user` or `system`.
    public init?(name: String) {
        guard let a = Actor.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = a
    }
}
