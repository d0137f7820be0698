/// The stream (entity) an event belongs to, as a value: `.email(id)`, `.draft(id)`, `.folder(account:path:)`.
///
/// `rawValue` is exactly the text the log stores ("email/ID", "account/NAME", "folder/ACCOUNT/PATH", ...), so
/// the log format does not depend on this type; `kind` parses a stored name back. Streams no constructor
/// covers (tools and tests use their own) go through `init(rawValue:)`.
public struct StreamName: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The stream's name as stored in the log.
    public let rawValue: String

    /// A stream by its stored name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A stream by its stored name (a literal, for fixed names such as "store").
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    /// The store's own stream (`StoreInitialized`).
    public static let store = StreamName(rawValue: "store")
    /// An email's stream: its receipt, flag changes and expunges.
    public static func email(_ id: String) -> StreamName { StreamName(rawValue: "email/" + id) }
    /// An account's configuration stream (`AccountAdded`, `AccountRemoved`).
    public static func account(_ name: String) -> StreamName { StreamName(rawValue: "account/" + name) }
    /// A thread action's stream: the action, its outcomes, undo and compensations.
    public static func action(_ id: String) -> StreamName { StreamName(rawValue: "action/" + id) }
    /// A thread action's stream, by the action's event id.
    public static func action(_ id: EventID) -> StreamName { action(id.description) }
    /// A thread's stream (the bench's synthetic thread events; the store itself writes none today).
    public static func thread(_ id: String) -> StreamName { StreamName(rawValue: "thread/" + id) }
    /// A draft's stream: its versions and its way through the outbox.
    public static func draft(_ id: String) -> StreamName { StreamName(rawValue: "draft/" + id) }
    /// A server or imported folder's stream (discovery, removal, sync checkpoints).
    public static func folder(account: String, path: String) -> StreamName {
        StreamName(rawValue: "folder/" + account + "/" + path)
    }

    /// What a stream name stands for.
    public enum Kind: Hashable, Sendable {
        case store
        case email(String)
        case account(String)
        case action(String)
        case thread(String)
        case draft(String)
        /// A folder: the account is the text up to the first "/" after "folder/" (account names have none).
        case folder(account: String, path: String)
        /// A name none of the above parses (tools' and tests' own streams).
        case other(String)
    }

    /// The parsed name: `StreamName.email("x").kind == .email("x")`, and `kind` maps back to the same name.
    public var kind: Kind {
        if rawValue == "store" { return .store }
        guard let slash = rawValue.firstIndex(of: "/") else { return .other(rawValue) }
        let rest = String(rawValue[rawValue.index(after: slash)...])
        switch rawValue[..<slash] {
        case "email": return .email(rest)
        case "account": return .account(rest)
        case "action": return .action(rest)
        case "thread": return .thread(rest)
        case "draft": return .draft(rest)
        case "folder":
            guard let s = rest.firstIndex(of: "/") else { return .other(rawValue) }
            return .folder(account: String(rest[..<s]), path: String(rest[rest.index(after: s)...]))
        default: return .other(rawValue)
        }
    }

    /// The name of a parsed stream (the inverse of `kind`).
    public init(_ kind: Kind) {
        switch kind {
        case .store: self = .store
        case .email(let id): self = .email(id)
        case .account(let name): self = .account(name)
        case .action(let id): self = .action(id)
        case .thread(let id): self = .thread(id)
        case .draft(let id): self = .draft(id)
        case .folder(let account, let path): self = .folder(account: account, path: path)
        case .other(let raw): self.init(rawValue: raw)
        }
    }
}
