/// Diacritics removed as the search index removes them (SQLite FTS5's `unicode61 remove_diacritics 2`), so that
/// contact autocomplete finds what search finds: "franc" completes "François", "muller" "Müller". A letter FTS5
/// folds to one ASCII letter becomes that letter (U+00E7 -> "c"), a combining mark it drops goes (a name written
/// decomposed, "c" + U+0327), anything else stays (FTS5 keeps "ø", "ł", "ß" and every non-Latin script as they are).
/// The table (`DiacriticFold+Table.swift`) is generated from SQLite by `Tools/gen-diacritic-table` and checked
/// against the SQLite the tests run with. The text it folds is in the indexed form already (`IndexedText`: composed,
/// Greek without its marks), as FTS5's is.
package enum DiacriticFold {
    /// What `scalar` becomes: its ASCII letter, nil when it is dropped, itself when it has no diacritic FTS5 removes.
    /// Two binary searches (490 and 25 entries from SQLite 3.40); ASCII answered at once (the table has none).
    package static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let v = scalar.value
        guard v >= 0x80, v <= 0xFFFF else { return scalar }
        if let i = index(of: v, in: foldedScalars) { return Unicode.Scalar(foldedLetters[i]) }
        if index(of: v, in: droppedMarks) != nil { return nil }
        return scalar
    }

    /// `text` without the diacritics FTS5 removes; nil when it has none (all of it ASCII, or no scalar changes). A
    /// capital letter with diacritics becomes a small one (FTS5 folds case as it goes); other capitals stay: the caller
    /// lowercases first.
    package static func removingDiacritics(_ text: String) -> String? {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        var out = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            let folded = fold(scalar)
            if folded != scalar { changed = true }
            if let folded { out.append(folded) }
        }
        return changed ? String(out) : nil
    }

    /// The index of `value` in the ascending `table`, nil when absent.
    private static func index(of value: UInt32, in table: [UInt32]) -> Int? {
        var low = 0
        var high = table.count
        while low < high {
            let mid = (low + high) / 2
            if table[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < table.count && table[low] == value ? low : nil
    }
}
