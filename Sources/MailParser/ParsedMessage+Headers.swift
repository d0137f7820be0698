extension ParsedMessage {
    /// The value of the first header field named `name` (case-insensitive),
    /// unfolded but not decoded.
    package func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }

    /// The values of all header fields named `name`, in order.
    package func headers(named name: String) -> [String] {
        headers.compactMap { $0.hasName(name) ? $0.value : nil }
    }
}
