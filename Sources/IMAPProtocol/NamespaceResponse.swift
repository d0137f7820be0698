/// A `NAMESPACE` response (RFC 2342): the personal, other users' and shared namespaces.
package struct NamespaceResponse: Hashable, Sendable {
    /// The user's own namespaces.
    package var personal: [NamespaceDescription]
    /// Namespaces of other users' mailboxes.
    package var otherUsers: [NamespaceDescription]
    /// Shared namespaces.
    package var shared: [NamespaceDescription]

    /// A response with the given namespaces.
    package init(personal: [NamespaceDescription], otherUsers: [NamespaceDescription], shared: [NamespaceDescription]) {
        self.personal = personal
        self.otherUsers = otherUsers
        self.shared = shared
    }
}
