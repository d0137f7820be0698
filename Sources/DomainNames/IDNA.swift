import Foundation

/// The readable form of an internationalised domain: IDNA's A-labels (`xn--bcher-kva`, the Punycode of RFC 3492 that
/// mail carries in its headers) shown as their U-labels (`bücher`), with the safety rules browsers apply before they
/// show one. A label is shown decoded only when all of these hold; otherwise it stays exactly as given:
/// - it is an A-label (`xn--`, either case) of at most `maxLabelBytes`, in a domain of at most `maxDomainBytes`;
/// - its Punycode decodes (``Punycode/decode(_:)``) to text with a character beyond ASCII that re-encodes to the same
///   label (lowercased), unchanged by case folding and by compatibility mapping (NFKC, which composes), as IDNA's own
///   mapping would leave it, so no two A-labels show as one text (`ß` and final `ς`, which IDNA 2003 maps to `ss` and
///   `σ`, stay A-labels too);
/// - every character is an ASCII letter, digit or `-`, or beyond ASCII a letter, combining mark (not first) or decimal
///   digit: no control, format or invisible character (soft hyphen, a zero-width joiner but where IDNA 2008 allows it:
///   ``isJoinerAllowed(_:at:)``), bidi control, space, symbol or punctuation, nothing that `TerminalText` would remove;
/// - its scripts mix as Chromium's IDN display policy lets them (its rule 5, UTS 39's "highly restrictive" level): one
///   script, or Latin with the scripts of one CJK language (Han with Hiragana and Katakana, Han with Bopomofo, Han with
///   Hangul), so never Latin with Cyrillic, Greek or Armenian (`pаypal` with a Cyrillic а); and a Latin letter beyond
///   ASCII beside no other script (`ü中国`);
/// - a label of one script is not made only of the letters of that script that look Latin (Chromium's rule 10, its
///   whole-script confusables: `аррӏе` in Cyrillic, `οο` in Greek omicrons, `գօօգլէ` in Armenian; see ``Script``).
///
/// The bounds are those of DNS: a longer label or domain is no host name and is shown as given. Pure.
package enum IDNA {
    /// The longest label decoded (bytes, `xn--` included): DNS's limit.
    package static let maxLabelBytes = 63
    /// The longest domain decoded (bytes of the A-label form): DNS's limit.
    package static let maxDomainBytes = 253

    /// `email` with its domain (after the last `@`) as `unicodeDomain` shows it; itself when there is no `@`.
    package static func unicodeEmail(_ email: String) -> String {
        guard mayHoldALabel(email), let at = email.lastIndex(of: "@") else { return email }
        let domain = email[email.index(after: at)...]
        let shown = unicodeDomain(String(domain))
        return shown == domain ? email : String(email[...at]) + shown
    }

    /// Whether `text` has `xn--` in it, in any case: one pass over its bytes, no string made (most addresses have none).
    package static func mayHoldALabel(_ text: String) -> Bool {
        var last: UInt32 = 0
        for b in text.utf8 {
            // `| 0x20` lowercases a letter; another byte it changes only makes a false alarm, which the decoding then refuses.
            last = last << 8 | UInt32(b | 0x20)
            if last == 0x786E_2D2D { return true }
        }
        return false
    }

    /// `domain` with each A-label that passes the rules (see the type) as its U-label; itself when none does or the
    /// domain is over `maxDomainBytes`.
    package static func unicodeDomain(_ domain: String) -> String {
        guard domain.utf8.count <= maxDomainBytes, mayHoldALabel(domain) else { return domain }
        var changed = false
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false).map { label -> Substring in
            guard let u = unicodeLabel(label) else { return label }
            changed = true
            return Substring(u)
        }
        return changed ? labels.joined(separator: ".") : domain
    }

    /// The U-label of A-label `label`, or nil when it is not one or a rule of the type keeps it as it is.
    package static func unicodeLabel(_ label: some StringProtocol) -> String? {
        guard label.utf8.count <= maxLabelBytes, label.utf8.count > 4, label.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let lowered = label.lowercased()
        guard lowered.hasPrefix("xn--"), let scalars = Punycode.decode(lowered.dropFirst(4)),
              scalars.contains(where: { !$0.isASCII }), Punycode.encode(scalars).map({ "xn--" + $0 }) == lowered else { return nil }
        let text = String(String.UnicodeScalarView(scalars))
        guard let first = scalars.first, !isMark(first),
              scalars.indices.allSatisfy({ isAllowed(scalars[$0]) || isJoinerAllowed(scalars, at: $0) }),
              !scalars.contains(where: \.properties.changesWhenCaseFolded),
              // Scalar by scalar: `==` on strings would take a decomposed label for its composed form.
              text.precomposedStringWithCompatibilityMapping.unicodeScalars.elementsEqual(scalars),
              !isHomograph(scalars) else { return nil }
        return text
    }

    /// An ASCII letter, digit or '-', or beyond ASCII a letter, combining mark or decimal digit.
    private static func isAllowed(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value | 0x20
            return (0x61...0x7A).contains(v) || ("0"..."9").contains(s) || s == "-"
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return true
        default: return false
        }
    }

    static func isMark(_ s: Unicode.Scalar) -> Bool {
        [.nonspacingMark, .spacingMark, .enclosingMark].contains(s.properties.generalCategory)
    }
}
