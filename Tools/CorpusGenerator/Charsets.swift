#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Body charsets the generator writes.
package enum Charset: Int, CaseIterable, Sendable {
    case usASCII
    case utf8
    case iso88591
    case windows1252
    case koi8r
    case windows1251
    case shiftJIS
    case gb2312

    /// Name as written in MIME headers (one canonical spelling; some messages
    /// use the lowercase variant).
    var mimeName: [UInt8] {
        switch self {
        case .usASCII: return Array("us-ascii".utf8)
        case .utf8: return Array("UTF-8".utf8)
        case .iso88591: return Array("ISO-8859-1".utf8)
        case .windows1252: return Array("windows-1252".utf8)
        case .koi8r: return Array("KOI8-R".utf8)
        case .windows1251: return Array("windows-1251".utf8)
        case .shiftJIS: return Array("Shift_JIS".utf8)
        case .gb2312: return Array("GB2312".utf8)
        }
    }

    var iconvName: String {
        switch self {
        case .usASCII: return "ASCII"
        case .utf8: return "UTF-8"
        case .iso88591: return "ISO-8859-1"
        case .windows1252: return "WINDOWS-1252"
        case .koi8r: return "KOI8-R"
        case .windows1251: return "WINDOWS-1251"
        case .shiftJIS: return "SHIFT_JIS"
        case .gb2312: return "GB2312"
        }
    }

    /// Is this one of the legacy (non-UTF-8, non-ASCII) charsets?
    package var isLegacy: Bool { self != .utf8 && self != .usASCII }

    package static func fromMIMEName(_ name: String) -> Charset? {
        let lower = name.lowercased()
        for c in Charset.allCases where String(decoding: c.mimeName, as: UTF8.self).lowercased() == lower {
            return c
        }
        return nil
    }
}

enum CharsetError: Error {
    case unsupported(String)
    case unconvertible
}

/// Converts UTF-8 text to `charset` with iconv. Returns nil when the text
/// cannot be represented (the caller then skips that text for that charset).
func convertFromUTF8(_ text: String, to charset: Charset) -> [UInt8]? {
    let input = Array(text.utf8)
    switch charset {
    case .utf8:
        return input
    case .usASCII:
        return isASCII(input) ? input : nil
    case .iso88591:
        // Trivial mapping; no iconv needed.
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { return nil }
            out.append(UInt8(scalar.value))
        }
        return out
    default:
        return iconvConvert(input, to: charset.iconvName)
    }
}

/// Like `convertFromUTF8`, but never fails: characters the charset lacks are
/// transliterated (iconv //TRANSLIT: "€" -> "EUR") or replaced by "?".
func convertFromUTF8Lossy(_ text: String, to charset: Charset) -> [UInt8] {
    if let exact = convertFromUTF8(text, to: charset) { return exact }
    if charset != .usASCII && charset != .iso88591,
       let t = iconvConvert(Array(text.utf8), from: "UTF-8", to: charset.iconvName + "//TRANSLIT") {
        return t
    }
    var out: [UInt8] = []
    for ch in text {
        if let b = convertFromUTF8(String(ch), to: charset) { out += b } else { out.append(UInt8(ascii: "?")) }
    }
    return out
}

/// Decodes bytes in any charset iconv knows (by its iconv name) to a String.
func iconvToUTF8(_ bytes: [UInt8], iconvName: String) -> String? {
    guard let out = iconvConvert(bytes, from: iconvName, to: "UTF-8") else { return nil }
    return String(validating: out, as: UTF8.self)
}

/// Converts back to UTF-8 (used by tests to check the bytes are valid).
package func decodeToUTF8(_ bytes: [UInt8], from charset: Charset) -> String? {
    switch charset {
    case .utf8, .usASCII:
        return String(validating: bytes, as: UTF8.self)
    case .iso88591:
        var s = ""
        for b in bytes { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s
    default:
        guard let out = iconvConvert(bytes, from: charset.iconvName, to: "UTF-8") else { return nil }
        return String(validating: out, as: UTF8.self)
    }
}

/// Converts UTF-8 bytes to any iconv charset (nil when not representable).
func iconvFromUTF8(_ input: [UInt8], iconvName: String) -> [UInt8]? {
    iconvConvert(input, from: "UTF-8", to: iconvName)
}

private func iconvConvert(_ input: [UInt8], to target: String) -> [UInt8]? {
    iconvConvert(input, from: "UTF-8", to: target)
}

/// iconv descriptors are expensive to open (module loading, table set-up),
/// so they are cached per (source, target) pair and reset between uses.
private final class IconvCache: @unchecked Sendable {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    private var handles: [String: iconv_t] = [:]
    #endif
    private let lock = Mutex()

    static let shared = IconvCache()

    func convert(_ input: [UInt8], from source: String, to target: String) -> [UInt8]? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        lock.lock()
        defer { lock.unlock() }
        let key = source + "\u{0}" + target
        let handle: iconv_t
        if let h = handles[key] {
            handle = h
        } else {
            guard let h = iconv_open(target, source), Int(bitPattern: h) != -1 else { return nil }
            handles[key] = h
            handle = h
        }
        // Reset the conversion state.
        _ = iconv(handle, nil, nil, nil, nil)
        if input.isEmpty { return [] }
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        var inputCopy = input.map { CChar(bitPattern: $0) }
        let outCapacity = output.count
        var written = 0
        let ok: Bool = inputCopy.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                var inLeft = inBuf.count
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outCapacity
                let r = iconv(handle, &inPtr, &inLeft, &outPtr, &outLeft)
                if r == -1 || inLeft != 0 { return false }
                // Flush any shift state (ISO-2022-JP returns to ASCII).
                _ = iconv(handle, nil, nil, &outPtr, &outLeft)
                written = outCapacity - outLeft
                return true
            }
        }
        guard ok else { return nil }
        return Array(output[0 ..< written])
        #else
        return nil
        #endif
    }
}

/// A minimal pthread mutex (Foundation-free).
private final class Mutex: @unchecked Sendable {
    private var m = pthread_mutex_t()
    init() { pthread_mutex_init(&m, nil) }
    deinit { pthread_mutex_destroy(&m) }
    func lock() { pthread_mutex_lock(&m) }
    func unlock() { pthread_mutex_unlock(&m) }
}

private func iconvConvert(_ input: [UInt8], from source: String, to target: String) -> [UInt8]? {
    IconvCache.shared.convert(input, from: source, to: target)
}
