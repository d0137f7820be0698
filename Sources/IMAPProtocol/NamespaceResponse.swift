/// A `NAMESPACE` response (RFC 2342): the personal, other users' and shared namespaces.
public struct NamespaceResponse: Hashable, Sendable {
    /// The user's own namespaces.
    public var personal: [NamespaceDescription]
    /// Namespaces of other users' mailboxes.
    public var otherUsers: [NamespaceDescription]
    /// Shared namespaces.
    public var shared: [NamespaceDescription]

    /// A response with the given namespaces.
    public init(personal: [NamespaceDescription], otherUsers: [NamespaceDescription], shared: [NamespaceDescription]) {
        self.personal = personal
        self.otherUsers = otherUsers
        self.shared = shared
    }
}
