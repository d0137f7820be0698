import Foundation
import Glibc

/// Open iconv conversion descriptors to UTF-8, kept for reuse across messages and threads.
///
/// Opening a descriptor for a charset glibc converts with a module (ISO-2022-JP, Shift_JIS, GB18030, ...)
/// loads that module, and closing the last one unloads it: one open and close per message made an import
/// spend a few percent in the dynamic loader and in the page-table shootdowns of its mappings. Kept
/// descriptors keep their modules loaded. Bounds: 32 charsets, 4 idle descriptors each; beyond them a
/// descriptor is closed when given back. Only names iconv accepted are kept.
///
/// UTF-16, UTF-32 and the other wide charsets are never kept: glibc reads their byte order from a BOM on a
/// descriptor's first conversion only, and `iconv(cd, nil, nil, nil, nil)` does not undo it, so a kept
/// descriptor would read the next message in the byte order of the one before. They get a descriptor of their
/// own each time (glibc converts them without loading a module, so that costs little).
final class IconvPool: @unchecked Sendable {
    /// The process's pool.
    static let shared = IconvPool()
    static let maxCharsets = 32
    static let maxIdlePerCharset = 4

    private let lock = NSLock()
    private var idle: [String: [iconv_t]] = [:]

    /// Idle descriptors kept (for tests).
    var idleCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return idle.values.reduce(0) { $0 + $1.count }
    }

    /// Charsets with idle descriptors kept (for tests).
    var charsetCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return idle.count
    }

    /// A descriptor converting from `charset` to UTF-8 in its initial state, or nil when iconv does not
    /// know the charset. Give it back with `give(_:charset:)`.
    func take(_ charset: String) -> iconv_t? {
        guard IconvPool.isKept(charset) else { return open(charset) }
        lock.lock()
        if let cd = idle[charset]?.popLast() {
            lock.unlock()
            return cd
        }
        lock.unlock()
        return open(charset)
    }

    /// Whether iconv converts `charset` to UTF-8 (the descriptor it opened is kept, or closed).
    func knows(_ charset: String) -> Bool {
        guard let cd = take(charset) else { return false }
        give(cd, charset: charset)
        return true
    }

    /// A new descriptor from `charset` to UTF-8, or nil when iconv does not know the charset.
    private func open(_ charset: String) -> iconv_t? {
        guard let cd = iconv_open("UTF-8", charset), cd != iconv_t(bitPattern: -1) else { return nil }
        return cd
    }

    /// Whether a descriptor for `charset` (an iconv name) can be kept: not for the wide charsets, whose
    /// descriptors keep the byte order a BOM set through a reset (see the type's comment).
    static func isKept(_ charset: String) -> Bool {
        Charsets.codeUnit(charset) == 1
    }

    /// Gives back a descriptor from `take(_:)`: reset and kept, or closed when the pool is full or the charset is
    /// one never kept.
    func give(_ cd: iconv_t, charset: String) {
        guard IconvPool.isKept(charset) else {
            iconv_close(cd)
            return
        }
        _ = iconv(cd, nil, nil, nil, nil)
        lock.lock()
        let kept = idle[charset]?.count ?? -1
        if (kept >= 0 || idle.count < IconvPool.maxCharsets) && kept < IconvPool.maxIdlePerCharset {
            idle[charset, default: []].append(cd)
            lock.unlock()
            return
        }
        lock.unlock()
        iconv_close(cd)
    }
}
