extension IDNA {
    /// The scripts the homograph rules tell apart, by the Unicode blocks of their characters (Swift exposes no Script
    /// property): those Chromium's IDN display policy names (its script mixing and whole-script confusables) and the
    /// other scripts of its allowed set that are written on their own. A character of a block not listed is `other`:
    /// `other` mixed with any listed script is refused, but two unlisted scripts are one `other` to these rules.
    enum Script: Hashable {
        case latin, greek, cyrillic, armenian, hebrew, arabic, syriac, thaana, devanagari, bengali, gurmukhi, gujarati
        case oriya, tamil, telugu, kannada, malayalam, sinhala, thai, lao, tibetan, myanmar, georgian, ethiopic, khmer
        case mongolian, hangul, hiragana, katakana, bopomofo, han, other

        /// The script of `s`, or nil for a character every script shares (Common and Inherited in Unicode's terms):
        /// an ASCII digit, `-`, a combining mark of the blocks of marks any script takes, a zero-width joiner, and the
        /// prolonged sound mark `ー` both kana write.
        static func of(_ s: Unicode.Scalar) -> Script? {
            switch s.value {
            case 0x2D, 0x30...0x39, 0x300...0x36F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200C, 0x200D, 0x20D0...0x20FF,
                 0xFE20...0xFE2F, 0x30FC: nil
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x250...0x2AF, 0x1D00...0x1D7F, 0x1E00...0x1EFF,
                 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFF21...0xFF3A, 0xFF41...0xFF5A: .latin
            case 0x370...0x3FF, 0x1F00...0x1FFF: .greek
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
            case 0x530...0x58F, 0xFB13...0xFB17: .armenian
            case 0x590...0x5FF, 0xFB1D...0xFB4F: .hebrew
            case 0x600...0x6FF, 0x750...0x77F, 0x870...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: .arabic
            case 0x700...0x74F, 0x860...0x86F: .syriac
            case 0x780...0x7BF: .thaana
            case 0x900...0x97F, 0xA8E0...0xA8FF: .devanagari
            case 0x980...0x9FF: .bengali
            case 0xA00...0xA7F: .gurmukhi
            case 0xA80...0xAFF: .gujarati
            case 0xB00...0xB7F: .oriya
            case 0xB80...0xBFF: .tamil
            case 0xC00...0xC7F: .telugu
            case 0xC80...0xCFF: .kannada
            case 0xD00...0xD7F: .malayalam
            case 0xD80...0xDFF: .sinhala
            case 0xE00...0xE7F: .thai
            case 0xE80...0xEFF: .lao
            case 0xF00...0xFFF: .tibetan
            case 0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F: .myanmar
            case 0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F: .georgian
            case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xFFA0...0xFFDF: .hangul
            case 0x1200...0x139F, 0x2D80...0x2DDF, 0xAB00...0xAB2F: .ethiopic
            case 0x1780...0x17FF, 0x19E0...0x19FF: .khmer
            case 0x1800...0x18AF: .mongolian
            case 0x3040...0x309F: .hiragana
            case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: .katakana
            case 0x3100...0x312F, 0x31A0...0x31BF: .bopomofo
            case 0x2E80...0x2FDF, 0x3005...0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
                 0x20000...0x3FFFF: .han
            default: .other
            }
        }

        /// The sets of scripts a label may mix (Chromium's rule 5, UTS 39's "highly restrictive" level): Latin with
        /// the scripts of Japanese, of Chinese with Bopomofo, or of Korean. Any other mix, Latin with Cyrillic, Greek
        /// or Armenian above all, Cyrillic with Greek, is refused.
        static let allowedMixes: [Set<Script>] = [
            [.latin, .han, .hiragana, .katakana],
            [.latin, .han, .bopomofo],
            [.latin, .han, .hangul],
        ]

        /// Chromium's whole-script confusables (`kWholeScriptConfusables` in its IDN spoof checker): for each script
        /// whose letters can spell a Latin word, the letters (and digits) of it that look like Latin ones. A label of
        /// that script made of these only (`аррӏе`, Greek `οο`, Armenian `գօօգլէ`) reads as a Latin one. Chromium shows
        /// such a label under the script's own country domains (`.ru`, `.gr`, `.am`); here it is never shown: a
        /// sender's domain is judged without its top-level domain.
        static let latinLookalikes: [Script: Set<Unicode.Scalar>] = [
            .armenian: ["\u{561}", "\u{563}", "\u{566}", "\u{567}", "\u{56C}", "\u{570}", "\u{575}", "\u{578}", "\u{57D}",
                        "\u{582}", "\u{585}", "\u{559}"],
            .cyrillic: ["\u{430}", "\u{44B}", "\u{441}", "\u{501}", "\u{435}", "\u{50D}", "\u{4BB}", "\u{456}", "\u{44E}",
                        "\u{43A}", "\u{458}", "\u{4CF}", "\u{43E}", "\u{440}", "\u{517}", "\u{51B}", "\u{455}", "\u{51D}",
                        "\u{445}", "\u{443}", "\u{44A}", "\u{44C}", "\u{4BD}", "\u{43F}", "\u{433}", "\u{475}", "\u{461}"],
            .ethiopic: ["\u{1200}", "\u{1220}", "\u{1230}", "\u{1235}", "\u{1260}", "\u{1290}", "\u{1270}", "\u{12A8}",
                        "\u{12D0}", "\u{12D5}", "\u{12D8}", "\u{1320}", "\u{1350}", "\u{AB05}"],
            .georgian: ["\u{10D8}", "\u{10DD}", "\u{10E7}", "\u{10EB}", "\u{10EE}", "\u{10FD}", "\u{10FF}"],
            .greek: ["\u{3B1}", "\u{3B9}", "\u{3BA}", "\u{3BD}", "\u{3C1}", "\u{3C5}", "\u{3C9}", "\u{3B7}", "\u{3BF}", "\u{3C4}"],
            .hebrew: ["\u{5D3}", "\u{5D5}", "\u{5D7}", "\u{5D9}", "\u{5DF}", "\u{5E1}", "\u{5F0}", "\u{5F2}", "\u{5F3}", "\u{FB26}"],
            .bengali: ["\u{9E6}", "\u{9ED}"],
            .devanagari: ["\u{93D}", "\u{966}", "\u{971}"],
            .gujarati: ["\u{AA1}", "\u{A9F}", "\u{AE6}", "\u{AE7}"],
            .gurmukhi: ["\u{A66}", "\u{A67}"],
            .kannada: ["\u{CBD}", "\u{CE6}", "\u{CE7}"],
            .malayalam: ["\u{D1F}", "\u{D20}", "\u{D27}", "\u{D28}", "\u{D31}", "\u{D66}"],
            .oriya: ["\u{B20}", "\u{B66}", "\u{B6E}"],
            .tamil: ["\u{B9F}", "\u{BAA}", "\u{BE6}"],
            .telugu: ["\u{C66}", "\u{C67}"],
            .myanmar: ["\u{1001}", "\u{1002}", "\u{1004}", "\u{1011}", "\u{1015}", "\u{101D}", "\u{1040}", "\u{1042}",
                       "\u{1054}", "\u{105C}", "\u{1090}", "\u{1091}", "\u{1095}", "\u{1096}", "\u{1097}"],
            // Chromium's larger set, that of Linux, where these are confusable in its fonts.
            .thai: ["\u{E17}", "\u{E19}", "\u{E1A}", "\u{E1E}", "\u{E23}", "\u{E2B}", "\u{E40}", "\u{E41}", "\u{E50}",
                    "\u{E14}", "\u{E25}", "\u{E1B}", "\u{E1F}", "\u{E21}"],
        ]

        /// Words made of Cyrillic lookalikes that Chromium shows all the same: common words that spell no Latin one.
        static let allowedLookalikeWords: Set<String> = ["секс", "как", "коса", "курс", "парк", "такий", "укроп", "сахарок", "покраска"]
    }

    /// Whether `label` is a homograph by the rules of the type: scripts mixed otherwise than `Script.allowedMixes`, a
    /// Latin letter beyond ASCII beside another script, or one script's Latin lookalikes only (`Script.latinLookalikes`).
    static func isHomograph(_ label: [Unicode.Scalar]) -> Bool {
        var scripts: Set<Script> = [], nonASCIILatin = false
        for s in label {
            guard let script = Script.of(s) else { continue }
            scripts.insert(script)
            if script == .latin && !s.isASCII { nonASCIILatin = true }
        }
        guard scripts.count == 1, let script = scripts.first else {
            if nonASCIILatin || scripts.contains(.other) { return scripts.count > 1 }
            return !Script.allowedMixes.contains { scripts.isSubset(of: $0) }
        }
        guard let lookalikes = Script.latinLookalikes[script],
              label.allSatisfy({ Script.of($0) == nil || lookalikes.contains($0) }) else { return false }
        return !Script.allowedLookalikeWords.contains(String(String.UnicodeScalarView(label)))
    }
}
