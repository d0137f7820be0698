extension IDNA {
    /// ZERO WIDTH NON-JOINER (U+200C): in IDNA 2008 a CONTEXTJ code point.
    static let zeroWidthNonJoiner: Unicode.Scalar = "\u{200C}"
    /// ZERO WIDTH JOINER (U+200D): in IDNA 2008 a CONTEXTJ code point.
    static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"

    /// Whether `label[index]` is a zero-width joiner or non-joiner that IDNA 2008's contextual rules allow where it
    /// stands (RFC 5892 Appendix A.1 and A.2): right after a virama (canonical combining class 9), where it chooses
    /// the conjunct, half or chillu form of an Indic cluster (`क्‍ष`, Malayalam `അവന്‍`). Any other joiner is refused,
    /// so that an invisible character cannot tell two labels that look alike apart.
    ///
    /// Left out, and so refused: A.1's second case, a ZWNJ between letters of the right joining types (Persian
    /// `می‌خواهم`), which needs Unicode's Joining_Type property that Swift does not expose; such a label stays an
    /// A-label, as every label a rule here refuses does.
    static func isJoinerAllowed(_ label: [Unicode.Scalar], at index: Int) -> Bool {
        let s = label[index]
        guard s == zeroWidthJoiner || s == zeroWidthNonJoiner, index > 0 else { return false }
        return label[index - 1].properties.canonicalCombiningClass == .virama
    }
}
