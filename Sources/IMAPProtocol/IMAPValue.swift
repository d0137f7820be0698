/// A generic IMAP data item, for parts of responses kept in their structured raw form
/// (BODYSTRUCTURE, unknown FETCH items, extension data).
package indirect enum IMAPValue: Hashable, Sendable {
    /// An atom or number, as sent (e.g. `TEXT`, `1234`, `\Seen`).
    case atom(String)
    /// A quoted string or literal: its bytes, escapes removed.
    case string([UInt8])
    /// `NIL`.
    case nilValue
    /// A parenthesised list.
    case list([IMAPValue])

    /// The atom, or the string decoded as UTF-8; nil for `NIL` and lists.
    package var text: String? {
        switch self {
        case .atom(let s): return s
        case .string(let b): return String(decoding: b, as: UTF8.self)
        case .nilValue, .list: return nil
        }
    }

    /// The bytes of a string or atom; nil for `NIL` and lists.
    package var bytes: [UInt8]? {
        switch self {
        case .atom(let s): return Array(s.utf8)
        case .string(let b): return b
        case .nilValue, .list: return nil
        }
    }

    /// The elements of a list; nil otherwise.
    package var elements: [IMAPValue]? {
        if case .list(let items) = self { return items }
        return nil
    }

    /// The value of an atom made only of digits that fits in 64 bits; nil otherwise.
    package var number: UInt64? {
        guard case .atom(let s) = self, !s.isEmpty else { return nil }
        var value: UInt64 = 0
        for b in s.utf8 {
            guard IMAPByte.isDigit(b) else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(b - IMAPByte.zero))
            if o1 || o2 { return nil }
            value = a
        }
        return value
    }

    /// Whether this is `NIL`.
    package var isNil: Bool { self == .nilValue }
}
