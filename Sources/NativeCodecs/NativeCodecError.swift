/// A failure inside a native codec library.
package enum NativeCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// OpenSSL failed; the text says which call.
    case openSSL(String)
    /// zstd failed; the text is zstd's own error name.
    case zstd(String)
    /// Compressed bytes are corrupt or do not match their recorded size.
    case corruptCompressedData(String)
    /// A file could not be read or written: its path and the system's reason.
    case io(String, String)

    package var description: String {
        switch self {
        case .openSSL(let s): "OpenSSL: \(s)"
        case .zstd(let s): "zstd: \(s)"
        case .corruptCompressedData(let s): "corrupt compressed data: \(s); run `mailstore verify`"
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }
}
