/// A `Content-Disposition` (RFC 2183).
package enum ContentDisposition: Sendable, Hashable {
    /// `inline`.
    case inline
    /// `attachment` (also used for unrecognised values, as RFC 2183 asks).
    case attachment

    /// Parses the disposition token; nil when empty.
    init?(token: String) {
        switch token {
        case "": return nil
        case "inline": self = .inline
        default: self = .attachment
        }
    }
}
