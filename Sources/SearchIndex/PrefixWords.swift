import SearchQuery

/// Expands a prefix term (`word*`) into the words of the index it matches, so a query holds a bounded
/// list of words instead of FTS5's prefix.
///
/// Why: without a prefix index FTS5 answers `m*` by merging the postings of every word starting with
/// `m` into one list, on every run of the statement. At a million generated messages that took 1.6 s a
/// run, and a thread page runs its query once for the page and once more per thread (26 runs: 42 s).
/// An OR of the words streams instead: each word's postings are read from where the rowid range starts.
/// The words are listed from the index's vocabulary (`terms`: a range of rows; FTS5's `fts5vocab`, which reads
/// every posting of the words it lists, while `terms` is not current), once per search, not once per run.
///
/// The expansion gives the same matches as FTS5's prefix, by construction:
/// - the prefix is tokenized as FTS5 tokenizes it (the same tokenizer, in a scratch in-memory table:
///   `meeting*` stems to `meet*`, as FTS5's own prefix query does);
/// - a listed word is written as a quoted word when the tokenizer gives it back unchanged. The Porter
///   stemmer is not idempotent (`deploy`, the stem of `deployment`, stems to `deploi`): such a word is
///   written as a surface form the tokenizer turns into it (`"deployment"`), found by trying the suffixes
///   the stemmer removes; failing that, by a shorter prefix of it that the tokenizer keeps, left to FTS5
///   (`"deplo" *`: still only words of the user's prefix);
/// - a prefix of several tokens (`text-t*`, `bob@ex*`: FTS5's phrase whose last token is a prefix) expands its last
///   token the same way, each word written after the term's text before that token, as a phrase (`"text-tea"`):
///   FTS5 merged the last token's postings for it on every run (`bob@e*` at 1M generated messages: 38 s for a
///   threads page, ~200 MB for `text-t*`);
/// - anything else (a quoted phrase, more than `maxWords` words, a word with no stable prefix, a term whose text
///   before its last token cannot be told apart) is left to FTS5's prefix query, as before.
final class PrefixWords {
    /// The most words one prefix expands to; past it the prefix is left to FTS5. An OR of n words costs
    /// n seeks per run of the statement and n comparisons per row it steps: with 1,539 words, the first 25
    /// of a million messages took 0.01 s and 25 thread spans 0.26 s (2026-11-29).
    static let maxWords = 2_048
    /// The most words one prefix expands to for sets of its matches only (`PrefixExpansions.heavy`), read a few
    /// words at a time, where a prefix of more is left to FTS5's prefix, which merges its postings in memory.
    /// The words listed are held (~64 bytes each: ~4 MiB).
    static let maxSetWords = 65_536
    /// The longest prefix text tokenized (characters); a longer one is left to FTS5.
    static let maxPrefixCharacters = 256
    /// The most prefix terms of one query expanded (the parser takes no more).
    static let maxTerms = SearchQuery.maxPrefixes

    /// Texts tokenized so far (`tokens`): what expansions cost.
    private(set) var tokenized = 0
    /// A scratch in-memory database with an FTS5 table tokenized like the index's `fts`.
    private let scratch: SQLiteConnection

    init() throws(SearchIndexError) {
        scratch = try SQLiteConnection(path: ":memory:", create: false)
        try scratch.exec("""
            CREATE VIRTUAL TABLE words USING fts5(x, tokenize = \(SearchSchema.tokenizer));
            CREATE VIRTUAL TABLE words_seen USING fts5vocab(words, 'instance');
            """)
    }

    /// The tokens FTS5 makes of each of `texts`, in order.
    func tokens(_ texts: [String]) throws(SearchIndexError) -> [[String]] {
        tokenized += texts.count
        try scratch.exec("DELETE FROM words")
        let insert = try scratch.prepare("INSERT INTO words(rowid, x) VALUES(?, ?)")
        for (i, t) in texts.enumerated() { try insert.run([.int(Int64(i)), .text(t)]) }
        var out = Array(repeating: [String](), count: texts.count)
        let read = try scratch.prepare("SELECT doc, term FROM words_seen ORDER BY doc, offset")
        try read.bind([])
        while try read.step() {
            let doc = Int(read.int(0))
            if out.indices.contains(doc) { out[doc].append(read.text(1)) }
        }
        read.reset()
        return out
    }

    /// The FTS5 expression (without the column filter) that matches what `term`'s prefix matches, or nil
    /// to leave it to FTS5's prefix: `listing` then `expansion(of:)`.
    func expansion(of term: TextTerm, most: Int = PrefixWords.maxWords,
                   listWords: (_ from: String, _ body: (_ word: String, _ inColumns: Bool, _ occurrences: Int) -> Bool) throws -> Void) throws -> PrefixExpansion? {
        guard let listed = try listing(of: term, most: most, listWords: listWords), listed.complete else { return nil }
        return try expansion(of: listed)
    }

    /// The index's words that `term`'s prefix matches in its columns and their postings, without tokenizing them;
    /// nil for a term not expanded (not a prefix, too long, a prefix of several tokens). `listWords` lists the
    /// index's words from a start word in byte order, each with whether it is in one of the term's columns (a
    /// word may come once per column) and its occurrences there, calling its body until it returns false. `most`
    /// bounds the words listed, in any column: past it the listing is not `complete`. A term of several tokens
    /// lists at most `most` divided by its tokens: each word is written as a phrase of them all, so an expansion holds
    /// at most `most` tokens (a term of 128 one-letter tokens would otherwise have made 2,048 phrases of 128).
    func listing(of term: TextTerm, most: Int,
                 listWords: (_ from: String, _ body: (_ word: String, _ inColumns: Bool, _ occurrences: Int) -> Bool) throws -> Void) throws -> PrefixListing? {
        guard term.isPrefix, term.text.count <= Self.maxPrefixCharacters else { return nil }
        let parsed = try tokens([term.text])
        guard parsed.count == 1, let prefix = parsed[0].last else { return nil }
        var lead = ""
        if parsed[0].count > 1 {
            guard let found = try leadingText(of: term.text, tokens: parsed[0]) else { return nil }
            lead = found
            // A phrase with a token that is in none of the term's columns matches nothing: no word is listed (FTS5
            // would step the other tokens' rows for each word's phrase: `text-t*`, where `text` is only in the
            // MIME types, 5.1 s at 1M generated messages).
            for token in Set(parsed[0].dropLast()) {
                var present = false
                try listWords(token) { word, inColumns, _ in
                    guard word == token else { return false }
                    present = present || inColumns
                    return !present
                }
                if !present { return PrefixListing(prefix: prefix, lead: lead, words: [], postings: 0, complete: true) }
            }
        }
        // A phrase's words hold twice `most` tokens at most: a prefix after one token (`re-m*`) lists as many words as
        // a prefix alone (left to FTS5, `re-m*` at 1M took ~1.2 s for each copy of a threads page looked up).
        let most = parsed[0].count > 2 ? most * 2 / parsed[0].count : most
        var words: [String] = []
        var listed = 0
        var last: String?
        var tooMany = false
        var postings = 0
        try listWords(prefix) { word, inColumns, occurrences in
            guard word.utf8.starts(with: prefix.utf8) else { return false }
            if word != last {
                last = word
                listed += 1
                if listed > most {
                    tooMany = true
                    return false
                }
            }
            if inColumns {
                if words.last != word { words.append(word) }
                // Saturating: counts read from the index file are not trusted.
                let n = max(0, occurrences)
                postings = postings > Int.max - n ? Int.max : postings + n
            }
            return true
        }
        return PrefixListing(prefix: prefix, lead: lead, words: tooMany ? [] : words, postings: postings, complete: !tooMany)
    }

    /// The text of a term of several tokens before its last token: the longest start of `text` that tokenizes to
    /// all its `tokens` but the last, where the rest tokenizes to the last alone, and after which a word starts a
    /// token of its own (`text-` of `text-t`). Nil when there is none: the term is then left to FTS5's prefix.
    func leadingText(of text: String, tokens all: [String]) throws -> String? {
        let leading = Array(all.dropLast()), last = all[all.count - 1]
        var cuts: [String.Index] = []
        var i = text.startIndex
        while i < text.endIndex {
            cuts.append(i)
            i = text.index(after: i)
        }
        let heads = cuts.map { String(text[..<$0]) }, tails = cuts.map { String(text[$0...]) }
        let probe = "x"
        let parsed = try tokens(heads + tails + heads.map { $0 + probe })
        let n = cuts.count
        for k in stride(from: n - 1, through: 0, by: -1)
        where parsed[k] == leading && parsed[n + k] == [last] && parsed[2 * n + k] == leading + [probe] {
            return heads[k]
        }
        return nil
    }

    /// The FTS5 words and prefixes whose OR matches what a complete `listing`'s prefix matches, or nil to leave
    /// it to FTS5's prefix (a word the stemmer changes with no form or prefix that it keeps). Tokenizes every
    /// word listed (in a scratch table: ~0.1 ms a word with the forms of those the stemmer changes).
    func expansion(of listing: PrefixListing) throws -> PrefixExpansion? {
        guard listing.complete else { return nil }
        let prefix = listing.prefix, words = listing.words, postings = listing.postings, lead = listing.lead
        // No word in the term's columns: an empty phrase, which matches nothing.
        if words.isEmpty { return PrefixExpansion(parts: ["\"\""], postings: 0) }
        let back = try tokens(words)
        var parts: [String] = []
        var unstable: [String] = []
        for (w, t) in zip(words, back) {
            if t == [w] { parts.append(Self.quoted(lead + w)) } else { unstable.append(w) }
        }
        if !unstable.isEmpty {
            // A word the tokenizer changes is written as a surface form it stems to: the word and a suffix
            // the stemmer takes off after the step that changed it (`deploy` from `deployment`).
            let forms = unstable.flatMap { w in Self.suffixes.map { w + $0 } }
            let formTokens = try tokens(forms)
            var left: [String] = []
            for (i, w) in unstable.enumerated() {
                let range = i * Self.suffixes.count ..< (i + 1) * Self.suffixes.count
                if let j = range.first(where: { formTokens[$0] == [w] }) {
                    parts.append(Self.quoted(lead + forms[j]))
                } else {
                    left.append(w)
                }
            }
            // Else its longest prefix (at least the user's) the tokenizer keeps, left to FTS5's prefix. The
            // stemmer leaves tokens over 64 bytes as they are, so a word it changes has at most 64 prefixes.
            guard left.allSatisfy({ $0.utf8.count <= Self.maxStemmedBytes }) else { return nil }
            // Each word's prefixes, longest first, down to the user's.
            let candidates: [[String]] = left.map { w in
                var out: [String] = []
                var p = Substring(w)
                while p.utf8.count > prefix.utf8.count {
                    p = p.dropLast()
                    if p.utf8.count >= prefix.utf8.count { out.append(String(p)) }
                }
                return out
            }
            let flat = candidates.flatMap { $0 }
            let stable = Set(zip(flat, try tokens(flat)).filter { [$0.0] == $0.1 }.map(\.0))
            var prefixes = Set<String>()
            for list in candidates {
                guard let found = list.first(where: stable.contains) else { return nil }
                prefixes.insert(found)
            }
            parts += prefixes.sorted().map { Self.quoted(lead + $0) + " *" }
        }
        return PrefixExpansion(parts: parts, postings: postings)
    }

    /// The longest token FTS5's Porter stemmer changes (`FTS5_PORTER_MAX_TOKEN`).
    static let maxStemmedBytes = 64

    /// Suffixes the Porter stemmer removes (its steps 1 to 5), tried after a word to find a surface form of it.
    static let suffixes = ["s", "e", "es", "ed", "ing", "ational", "tional", "enci", "anci", "izer", "abli", "alli", "entli",
                           "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti",
                           "iviti", "biliti", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance",
                           "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate",
                           "iti", "ous", "ive", "ize", "ly"]

    /// `word` as an FTS5 string (quotes doubled).
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
