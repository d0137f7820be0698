/// Why the views could not be opened, rebuilt or compared.
public enum ViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No view by that name.
    case unknownView(String)

    public var description: String {
        switch self {
        case .unknownView(let v): "unknown view '\(v)'; views: \(ViewCatalog.names.joined(separator: ", "))"
        }
    }
}
