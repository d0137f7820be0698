extension IDNA {
    /// The scripts the homograph rule tells apart, by the Unicode blocks of their letters (Swift exposes no Script
    /// property): enough to see Latin mixed with Cyrillic or Greek, the confusions that spoof a Latin domain.
    enum Script {
        case latin, cyrillic, greek, other

        /// The script of letter `s`.
        static func of(_ s: Unicode.Scalar) -> Script {
            switch s.value {
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x250...0x2AF, 0x1D00...0x1D7F, 0x1E00...0x1EFF,
                 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFF21...0xFF3A, 0xFF41...0xFF5A: .latin
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
            case 0x370...0x3FF, 0x1F00...0x1FFF: .greek
            default: .other
            }
        }

        /// The Cyrillic letters that look like Latin ones (Chromium's list for whole-script confusables): a label made
        /// of these only (`аррӏе`, `соса`) reads as a Latin one.
        static let latinLookingCyrillic: Set<Unicode.Scalar> = [
            "\u{430}", "\u{44B}", "\u{441}", "\u{501}", "\u{435}", "\u{50D}", "\u{4BB}", "\u{456}", "\u{44E}", "\u{458}",
            "\u{4CF}", "\u{43E}", "\u{440}", "\u{51B}", "\u{455}", "\u{51D}", "\u{445}", "\u{443}", "\u{44A}", "\u{44C}",
            "\u{4BD}", "\u{43F}", "\u{433}", "\u{475}", "\u{461}",
        ]
    }
}
