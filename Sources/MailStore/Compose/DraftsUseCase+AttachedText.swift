import Foundation

extension DraftsUseCase {
    /// The MIME type and `charset` a file attached with `--attach` is sent with: its type from its extension
    /// (``mimeType(_:)``) and, for a `text/*` file, the charset its bytes are in as far as they tell it. A text file
    /// of ASCII alone goes without one (RFC 2046's default, US-ASCII, is right); one that is valid UTF-8 with bytes
    /// beyond ASCII goes as `charset=utf-8` (without it, readers took the text for US-ASCII and showed `Ã¼` for `ü`).
    /// Text that is not UTF-8 names no charset of its own: an HTML file goes as `text/html` without one (its own
    /// `<meta charset>` tells readers), any other is sent as `application/octet-stream`, the file as it is, so no
    /// reader decodes it in a charset it is not in. At most two passes over the bytes (``maxAttachmentBytes`` at most).
    static func attachedType(_ name: String, bytes: [UInt8]) -> (mimeType: String, charset: String?) {
        let type = mimeType(name)
        guard type.hasPrefix("text/"), bytes.contains(where: { $0 >= 0x80 }) else { return (type, nil) }
        if String(validating: bytes, as: UTF8.self) != nil { return (type, "utf-8") }
        return type == "text/html" ? (type, nil) : ("application/octet-stream", nil)
    }
}
