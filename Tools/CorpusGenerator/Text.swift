// Body text: a small document model (paragraphs, quotes, signature) that
// renders both as wrapped plain text and as HTML.

struct Doc {
    enum Kind: UInt8 {
        case text        // wrapped at 72 columns; LF inside = hard break
        case pre         // lines kept as they are (split on LF)
        case signature   // rendered after a "-- " line
    }

    struct Para {
        var start: Int
        var end: Int
        var kind: Kind
        var level: Int  // quote depth
    }

    var bytes: [UInt8] = []
    var paras: [Para] = []

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        paras.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    var mark: Int { bytes.count }

    mutating func close(_ start: Int, _ kind: Kind, level: Int) {
        if bytes.count > start {
            paras.append(Para(start: start, end: bytes.count, kind: kind, level: level))
        }
    }
}

// MARK: - English sentences

@inline(__always)
private func startsWithVowel(_ word: [UInt8]) -> Bool {
    guard let f = word.first else { return false }
    switch f {
    case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"),
         UInt8(ascii: "A"), UInt8(ascii: "E"), UInt8(ascii: "I"), UInt8(ascii: "O"):
        return true
    default:
        return false
    }
}

private let determinersSubject: [[UInt8]] = ["the", "our", "this", "the new", "that", "their", "my", "the old"]
    .map { Array($0.utf8) }
private let determinersObject: [[UInt8]] = ["the", "a", "our", "this", "every", "some", "your", "the whole"]
    .map { Array($0.utf8) }
private let questionStarts: [[UInt8]] = ["could we", "can you", "should we", "would it make sense to",
                                         "do you want to", "is it possible to", "can someone"]
    .map { Array($0.utf8) }
private let requestStarts: [[UInt8]] = ["we need to", "please", "let's", "I will", "I'd like to",
                                        "we should", "I can", "someone has to", "we could"]
    .map { Array($0.utf8) }
private let measureStarts: [[UInt8]] = ["we measured", "the numbers show", "we saw", "I got", "the graph shows",
                                        "the logs show"]
    .map { Array($0.utf8) }
private let thanksStarts: [[UInt8]] = ["thanks for", "sorry for the delay on", "good catch on",
                                       "nice work on", "any news on"]
    .map { Array($0.utf8) }

extension Array where Element == UInt8 {
    @inline(__always)
    fileprivate mutating func space() { append(UInt8(ascii: " ")) }

    fileprivate mutating func nounPhrase(_ rng: inout Xoshiro256, subject: Bool) {
        let v = english
        if subject {
            put(rng.pick(determinersSubject))
        } else {
            let d = rng.pick(determinersObject)
            if d.count == 1 && d[0] == UInt8(ascii: "a") {
                // "a" / "an" depends on the next word.
                let useAdj = rng.chance(400)
                let adj = rng.pick(v.adjectives)
                let noun = rng.pick(v.nouns)
                let next = useAdj ? adj : noun
                put(startsWithVowel(next) ? "an" : "a")
                space()
                if useAdj { put(adj); space() }
                put(noun)
                return
            }
            put(d)
        }
        space()
        if rng.chance(400) { put(rng.pick(v.adjectives)); space() }
        put(rng.pick(v.nouns))
    }

    fileprivate mutating func optionalTail(_ rng: inout Xoshiro256, _ perMille: Int) {
        if rng.chance(perMille) { space(); put(rng.pick(english.tails)) }
    }
}

/// Writes one English sentence (capitalized, with final punctuation).
func englishSentence(_ rng: inout Xoshiro256, into out: inout [UInt8], allowOpener: Bool) {
    let v = english
    let start = out.count
    let t = rng.below(100)
    var end: UInt8 = UInt8(ascii: ".")
    func opener(_ out: inout [UInt8], _ rng: inout Xoshiro256) {
        if allowOpener && rng.chance(350) { out.put(rng.pick(v.openers)); out.space() }
    }
    switch t {
    case 0 ..< 38:
        opener(&out, &rng)
        out.nounPhrase(&rng, subject: true); out.space()
        out.put(rng.pick(v.verbs3)); out.space()
        out.nounPhrase(&rng, subject: false)
        out.optionalTail(&rng, 500)
    case 38 ..< 50:
        opener(&out, &rng)
        out.put(rng.pick(v.people)); out.space()
        out.put(rng.pick(v.verbsBase)); out.space()
        out.nounPhrase(&rng, subject: false)
        out.optionalTail(&rng, 450)
    case 50 ..< 58:
        out.put(rng.pick(questionStarts)); out.space()
        out.put(rng.pick(v.verbsBase)); out.space()
        out.nounPhrase(&rng, subject: false)
        out.optionalTail(&rng, 400)
        end = UInt8(ascii: "?")
    case 58 ..< 64:
        out.put("does anyone know why "); out.nounPhrase(&rng, subject: true); out.space()
        out.put(rng.pick(v.verbs3)); out.space()
        out.nounPhrase(&rng, subject: false)
        end = UInt8(ascii: "?")
    case 64 ..< 72:
        opener(&out, &rng)
        if rng.chance(400) { out.put("it looks like ") }
        out.nounPhrase(&rng, subject: true)
        out.put(rng.chance(700) ? " is " : " seems ")
        if rng.chance(300) { out.put(rng.chance(500) ? "really " : "a bit ") }
        out.put(rng.pick(v.adjectives))
        out.optionalTail(&rng, 500)
    case 72 ..< 81:
        out.put(rng.pick(requestStarts)); out.space()
        out.put(rng.pick(v.verbsBase)); out.space()
        out.nounPhrase(&rng, subject: false)
        out.optionalTail(&rng, 550)
    case 81 ..< 89:
        opener(&out, &rng)
        out.put(rng.pick(measureStarts)); out.put(" about ")
        out.putDecimal(rng.chance(500) ? rng.range(2, 99) : rng.range(100, 9999)); out.space()
        out.put(rng.pick(v.units)); out.put(" on ")
        out.nounPhrase(&rng, subject: true)
        out.optionalTail(&rng, 400)
    case 89 ..< 95:
        out.put("let me know if "); out.put(rng.pick(v.people)); out.put(" can ")
        out.put(rng.pick(v.verbsBase)); out.space()
        out.nounPhrase(&rng, subject: false)
        out.optionalTail(&rng, 300)
    default:
        out.put(rng.pick(thanksStarts)); out.space()
        out.nounPhrase(&rng, subject: true)
        if rng.chance(300) { end = UInt8(ascii: "!") }
    }
    out.append(end)
    // Capitalize.
    let c = out[start]
    if c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") { out[start] = c - 32 }
}

/// The text a message author writes themselves: a function of the message's
/// own seed and language only, so a reply can regenerate (and quote) it.
/// `charset` only selects how the chosen sentences are encoded.
func appendOwnText(seed: UInt64, language: Language, charset: Charset, to doc: inout Doc, level: Int,
                   maxParagraphs: Int = .max) {
    var rng = Xoshiro256(seed: seed)
    let paragraphCount = 1 + rng.weighted([18, 32, 30, 20])
    if language == .english {
        for p in 0 ..< min(paragraphCount, maxParagraphs) {
            let start = doc.mark
            let sentences = rng.range(2, 6)
            for s in 0 ..< sentences {
                if s > 0 { doc.bytes.append(UInt8(ascii: " ")) }
                englishSentence(&rng, into: &doc.bytes, allowOpener: s == 0 || p == 0)
            }
            doc.close(start, .text, level: level)
        }
    } else {
        let pool = languagePools.pool(language, charset)
        let separator: UInt8 = language.wrapsWords ? UInt8(ascii: " ") : asciiLF
        for _ in 0 ..< min(paragraphCount, maxParagraphs) {
            let start = doc.mark
            let sentences = rng.range(2, 4)
            for s in 0 ..< sentences {
                if s > 0 { doc.bytes.append(separator) }
                doc.bytes.put(pool.sentences[rng.below(pool.sentences.count)])
            }
            doc.close(start, .text, level: level)
        }
    }
}

// MARK: - Rendering

extension Array where Element == UInt8 {
    @inline(__always)
    fileprivate mutating func quotePrefix(_ level: Int, trailingSpace: Bool) {
        if level == 0 { return }
        for _ in 0 ..< level { append(UInt8(ascii: ">")) }
        if trailingSpace { append(UInt8(ascii: " ")) }
    }

    /// Word-wraps `text` (LF = hard break) at `width` columns with a quote prefix.
    fileprivate mutating func putWrapped(_ text: ArraySlice<UInt8>, width: Int, level: Int) {
        var lineStart = text.startIndex
        let end = text.endIndex
        while lineStart < end {
            // Find hard break.
            var hard = lineStart
            while hard < end && text[hard] != asciiLF { hard += 1 }
            var pos = lineStart
            while pos < hard {
                quotePrefix(level, trailingSpace: true)
                if hard - pos <= width {
                    append(contentsOf: text[pos ..< hard])
                    putCRLF()
                    pos = hard
                    break
                }
                // Break at the last space within width.
                var cut = pos + width
                while cut > pos && text[cut] != UInt8(ascii: " ") { cut -= 1 }
                if cut == pos {
                    // No space: break at the next space (long word) or at hard.
                    cut = pos + width
                    while cut < hard && text[cut] != UInt8(ascii: " ") { cut += 1 }
                }
                append(contentsOf: text[pos ..< cut])
                putCRLF()
                pos = cut
                while pos < hard && text[pos] == UInt8(ascii: " ") { pos += 1 }
            }
            lineStart = hard + 1
            if hard == end { break }
        }
    }
}

/// Renders `doc` as plain text with CRLF line ends.
func renderPlain(_ doc: Doc, into out: inout [UInt8]) {
    var previousLevel = -1
    for (i, p) in doc.paras.enumerated() {
        if i > 0 {
            let blankLevel = min(previousLevel, p.level)
            out.quotePrefix(blankLevel, trailingSpace: false)
            out.putCRLF()
        }
        let slice = doc.bytes[p.start ..< p.end]
        switch p.kind {
        case .text:
            out.putWrapped(slice, width: 72, level: p.level)
        case .pre:
            out.putWrapped(slice, width: 990, level: p.level)
        case .signature:
            out.quotePrefix(p.level, trailingSpace: true)
            out.put("-- "); out.putCRLF()
            out.putWrapped(slice, width: 990, level: p.level)
        }
        previousLevel = p.level
    }
}

/// Renders `doc` as an HTML document. With `longLines`, each paragraph is one
/// line (as Outlook and Gmail write it, relying on quoted-printable soft
/// breaks); otherwise lines are wrapped at about 76 columns.
func renderHTML(_ doc: Doc, charset: Charset, longLines: Bool, inlineImageCID: [UInt8]?, into out: inout [UInt8]) {
    out.put("<html><head>"); out.putCRLF()
    out.put("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=")
    out.put(charset.mimeName)
    out.put("\">"); out.putCRLF()
    out.put("</head>"); out.putCRLF()
    out.put("<body>"); out.putCRLF()
    out.put("<div dir=\"ltr\">"); out.putCRLF()
    var level = 0
    var escaped: [UInt8] = []
    for p in doc.paras {
        while level < p.level {
            out.put("<blockquote type=\"cite\" style=\"margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex\">")
            out.putCRLF()
            level += 1
        }
        while level > p.level {
            out.put("</blockquote>"); out.putCRLF()
            level -= 1
        }
        escaped.removeAll(keepingCapacity: true)
        switch p.kind {
        case .text:
            escaped.put("<p>")
        case .pre:
            escaped.put("<div>")
        case .signature:
            escaped.put("<div class=\"moz-signature\">-- <br>")
        }
        doc.bytes.withUnsafeBufferPointer { src in
            var i = p.start
            var run = i
            while i < p.end {
                let b = src[i]
                if b == asciiLF || b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") {
                    if run < i { escaped.append(contentsOf: UnsafeBufferPointer(rebasing: src[run ..< i])) }
                    switch b {
                    case asciiLF: escaped.put("<br>")
                    case UInt8(ascii: "&"): escaped.put("&amp;")
                    case UInt8(ascii: "<"): escaped.put("&lt;")
                    default: escaped.put("&gt;")
                    }
                    run = i + 1
                }
                i += 1
            }
            if run < p.end { escaped.append(contentsOf: UnsafeBufferPointer(rebasing: src[run ..< p.end])) }
        }
        escaped.put(p.kind == .text ? "</p>" : "</div>")
        if longLines {
            out.put(escaped)
            out.putCRLF()
        } else {
            out.putWrapped(escaped[...], width: 76, level: 0)
        }
    }
    while level > 0 {
        out.put("</blockquote>"); out.putCRLF()
        level -= 1
    }
    if let cid = inlineImageCID {
        out.put("<p><img src=\"cid:"); out.put(cid); out.put("\" alt=\"image\" width=\"640\"></p>"); out.putCRLF()
    }
    out.put("</div>"); out.putCRLF()
    out.put("</body></html>"); out.putCRLF()
}
