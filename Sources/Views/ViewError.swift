/// Why the views could not be opened, rebuilt or compared.
public enum ViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No view by that name.
    case unknownView(String)
    /// The views are not built and the store is open read-only.
    case notBuilt(String)

    public var description: String {
        switch self {
        case .unknownView(let v): "unknown view '\(v)'; views: \(ViewCatalog.names.joined(separator: ", "))"
        case .notBuilt(let why): "the views are not built (\(why)): run `mailstore replay`"
        }
    }
}
