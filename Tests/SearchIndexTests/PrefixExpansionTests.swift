import CorpusGenerator
import Foundation
import MailStore
@testable import SearchIndex
import SearchQuery
import XCTest

/// Prefix terms (`word*`) expanded into the index's words match exactly what FTS5's own prefix query
/// matches, and a thread's other matches are found whichever way `matching` takes.
final class PrefixExpansionTests: SearchIndexTestCase {
    func expansion(_ query: String, _ idx: SearchIndex) throws -> String? {
        let parsed = try SearchQuery.parse(query)
        guard case .text(let t) = parsed.expr else { XCTFail("'\(query)' is not one term"); return nil }
        return try idx.locked { try idx.prefixExpansions(parsed.expr) }.expressions[t]
    }

    func testEveryShortPrefixOfAGeneratedCorpusMatchesWhatFTS5sPrefixMatches() throws {
        _ = try generateCorpus(CorpusOptions(messages: 400, outputDirectory: dir.file("md"), seed: 5))
        _ = try Importer(store: store, options: Importer.Options()).importMaildir(dir.file("md"))
        let idx = try index()
        let letters = "abcdefghijklmnopqrstuvwxyz0123456789".map(String.init)
        var expanded = 0, compared = 0
        for a in letters {
            for p in [a] + letters.map({ a + $0 }) {
                for field in ["", "from:", "subject:", "to:"] where p.count == 1 || field.isEmpty {
                    let query = field + p + "*"
                    let native = try hits(query, idx, expanded: false)
                    if native.isEmpty && p.count == 2 { continue }
                    compared += 1
                    XCTAssertEqual(try hits(query, idx, expanded: true), native, "'\(query)'")
                    if try expansion(query, idx) != nil { expanded += 1 }
                }
            }
        }
        XCTAssertGreaterThan(compared, 200)
        XCTAssertEqual(expanded, compared, "every prefix here has fewer words than the bound")
        // In combinations: under NOT, OR, beside a filter and a field; NOT and OR beside filters are sets.
        let combined = ["m* -d*", "(from:a* OR subject:b*) is:unread", "NOT e*", "s* t* w*", "-(a* OR b*) is:unread",
                        "(c* OR is:starred) -folder:INBOX"]
        for query in combined {
            XCTAssertEqual(try hits(query, idx, expanded: true), try hits(query, idx, expanded: false), "'\(query)'")
        }
        // A statement that steps past its budget goes on from where it stopped with FTS5's prefixes: at every
        // point, the same hits, each once, in order.
        for rowWords in [1, 40, 400, 4_000, 40_000, 400_000] {
            idx.expandedRowWords = rowWords
            for query in ["m*", "s* -t*", "a* is:unread", "from:b*"] + combined {
                for oldest in [false, true] {
                    XCTAssertEqual(try hits(query, idx, expanded: true, oldestFirst: oldest),
                                   try hits(query, idx, expanded: false, oldestFirst: oldest), "'\(query)' at \(rowWords)")
                }
            }
        }
    }

    /// A prefix of several tokens (`text-t*`, `bob@ex*`: FTS5's phrase whose last token is a prefix) expands its
    /// last token into words written after the text before it, as phrases, and matches what FTS5's phrase prefix
    /// matches: for pairs of words the mail holds (the subjects' first two, the senders' addresses), cut to one to
    /// three letters, in fields, beside other terms, as heavy prefixes read a few words at a time, and where the
    /// statement steps past its budget.
    func testAPrefixOfSeveralTokensExpandsItsLastAndMatchesWhatFTS5sPhrasePrefixMatches() throws {
        _ = try generateCorpus(CorpusOptions(messages: 400, outputDirectory: dir.file("md"), seed: 11))
        _ = try Importer(store: store, options: Importer.Options()).importMaildir(dir.file("md"))
        let idx = try index()
        var subjects: [String] = [], senders: [String] = []
        try idx.locked {
            let s = try idx.db.prepare("SELECT subject, participants FROM docs ORDER BY rowid LIMIT 40")
            try s.bind([])
            while try s.step() {
                subjects.append(s.text(0))
                senders.append(s.text(1))
            }
            s.reset()
        }
        var queries: [String] = []
        for subject in subjects.prefix(20) {
            let words: [String] = subject.split(whereSeparator: { !$0.isLetter }).map { String($0) }
                .filter { $0.count >= 3 && $0.allSatisfy(\.isASCII) }
            guard words.count >= 2 else { continue }
            for n in [1, 2, 3] { queries.append(words[0] + "-" + String(words[1].prefix(n)) + "*") }
        }
        // Addresses: `local@d*` (a local part with dots is a phrase of more tokens).
        let addresses: [String] = senders.flatMap { $0.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) && $0 != "@" && $0 != "." }) }
            .map { String($0) }.filter { $0.contains("@") && !$0.hasPrefix("@") && !$0.hasPrefix(".") }
        for address in Set(addresses).sorted().prefix(12) {
            let parts = address.split(separator: "@", maxSplits: 1)
            guard parts.count == 2, let d = parts[1].first else { continue }
            let local = String(parts[0]), first = local + "@" + String(d) + "*"
            queries += [first, "from:" + local + "@" + String(parts[1].prefix(2)) + "*", first + " -hello", "NOT " + first]
        }
        queries += ["zzzz-a*", "re-a*", "heads-u*", "(heads-u* OR t*) is:unread", "deploy-m*"]
        var matched = 0, expanded = 0
        for q in queries {
            let native = try hits(q, idx, expanded: false)
            if !native.isEmpty { matched += 1 }
            XCTAssertEqual(try hits(q, idx, expanded: true), native, "'\(q)'")
            if case .text(let t) = try SearchQuery.parse(q).expr, try expansion(q, idx) != nil {
                expanded += 1
                XCTAssertFalse(try XCTUnwrap(expansion(q, idx)).contains("\"" + t.text + "\" *"), "'\(q)': FTS5's phrase prefix left in")
            }
        }
        // A phrase with a token in none of the term's columns matches nothing, and lists no word.
        XCTAssertEqual(try expansion("text-t*", idx), "(\"\")", "'text' is only in the MIME types")
        XCTAssertEqual(try hits("text-t*", idx, expanded: false), [])
        XCTAssertNotEqual(try expansion("mimetype:text-p*", idx), "(\"\")")
        XCTAssertEqual(try hits("mimetype:text-p*", idx, expanded: true), try hits("mimetype:text-p*", idx, expanded: false))
        XCTAssertFalse(try hits("mimetype:text-p*", idx, expanded: false).isEmpty)
        XCTAssertGreaterThan(matched, 30, "most of these phrases are in the mail")
        XCTAssertGreaterThan(expanded, 30, "and are expanded")
        // Heavy: read a few words at a time; and a statement past its budget.
        for (merged, group, rowWords) in [(0, 1, SearchIndex.defaultExpandedRowWords), (0, 3, 1), (SearchIndex.defaultMaxMergedPostings, 16, 1)] {
            idx.maxMergedPostings = merged
            idx.setChunkWords = group
            idx.expandedRowWords = rowWords
            for q in queries.prefix(24) + ["NOT heads-u*", "re-a* OR folder:INBOX"] {
                for oldest in [false, true] {
                    XCTAssertEqual(try hits(q, idx, expanded: true, oldestFirst: oldest), try hits(q, idx, expanded: false, oldestFirst: oldest),
                                   "'\(q)' with \(merged) postings merged, by \(group) words, \(rowWords) row words")
                }
            }
        }
    }

    /// Prefixes with too many postings for FTS5's in-memory merge (`maxMergedPostings`, those with the most first)
    /// are heavy: a set of their matches is made from groups of their words (`setChunks`), an expression mixing a
    /// heavy prefix with another prefix is tested part by part (`partMembership`), and a statement that steps past
    /// its budget goes on testing the text in such sets (`textAsSets`). Whatever the budget and the group size, the
    /// matches are FTS5's own prefixes'.
    func testHeavyPrefixesAreReadAFewWordsAtATimeWithTheMatchesOfFTS5sPrefixes() throws {
        _ = try generateCorpus(CorpusOptions(messages: 400, outputDirectory: dir.file("md"), seed: 7))
        _ = try Importer(store: store, options: Importer.Options()).importMaildir(dir.file("md"))
        let idx = try index()
        // The budget decides which prefixes are heavy: none, the one with the most postings, or all.
        func heavy(_ query: String) throws -> [String: Int] {
            let parsed = try SearchQuery.parse(query)
            let e = try idx.locked { try idx.prefixExpansions(parsed.expr) }
            return Dictionary(uniqueKeysWithValues: e.heavy.map { ($0.key.text, $0.value.postings) })
        }
        idx.maxMergedPostings = 0
        let both = try heavy("t* m*")
        XCTAssertEqual(Set(both.keys), ["t", "m"])
        let (most, least) = both["t"]! >= both["m"]! ? ("t", "m") : ("m", "t")
        XCTAssertGreaterThan(both[least]!, 0)
        idx.maxMergedPostings = both[least]!
        XCTAssertEqual(Set(try heavy("t* m*").keys), [most], "the other fits the budget")
        idx.maxMergedPostings = both[least]! + both[most]!
        XCTAssertEqual(try heavy("t* m*"), [:])
        // A set of a heavy prefix's matches: one expression per group of words, none with FTS5's prefix `t*`.
        idx.maxMergedPostings = 0
        let parsed = try SearchQuery.parse("t*")
        var compiler = QueryCompiler(threadEmails: { _ in [] })
        let expansions = try idx.locked { try idx.prefixExpansions(parsed.expr) }
        compiler.heavy = expansions.heavy
        compiler.setChunkWords = 3
        let words = try XCTUnwrap(expansions.heavy.values.first).parts.count
        XCTAssertGreaterThan(words, 6)
        let chunks = compiler.setChunks([parsed.expr], not: [])
        XCTAssertEqual(chunks.count, (words + 2) / 3)
        XCTAssertFalse(chunks.contains { $0.contains("\"t\" *") }, "\(chunks.prefix(2))")
        XCTAssertTrue(compiler.mixesHeavy([try SearchQuery.parse("NOT (t* m*)").expr]))
        XCTAssertFalse(compiler.mixesHeavy([try SearchQuery.parse("t* hello").expr]))
        XCTAssertTrue(compiler.mixesHeavy([try SearchQuery.parse("NOT (t* hello)").expr]), "a heavy prefix under NOT")
        let queries = ["NOT t*", "NOT (t* m*)", "NOT (t* hello)", "t* folder:Nope", "(s* OR t*) is:unread", "m* -d*",
                       "-(a* OR b*) is:unread", "(c* OR is:starred) -folder:INBOX", "NOT (s* -t*)", "a* NOT t*",
                       "from:t* OR folder:INBOX", "t* m* -hello", "t*"]
        var native: [String: [Bool: [String]]] = [:]
        for q in queries {
            for oldest in [false, true] { native[q, default: [:]][oldest] = try hits(q, idx, expanded: false, oldestFirst: oldest) }
        }
        XCTAssertGreaterThan(native.values.filter { !$0[false]!.isEmpty }.count, 8, "most queries match something")
        for (merged, group, rowWords) in [(0, 1, SearchIndex.defaultExpandedRowWords), (0, 3, 1), (0, 16, 400),
                                          (both[least]!, 2, 1), (both[least]!, 5, SearchIndex.defaultExpandedRowWords)] {
            idx.maxMergedPostings = merged
            idx.setChunkWords = group
            idx.expandedRowWords = rowWords
            for q in queries {
                for oldest in [false, true] {
                    XCTAssertEqual(try hits(q, idx, expanded: true, oldestFirst: oldest), native[q]![oldest]!,
                                   "'\(q)' with \(merged) postings merged, by \(group) words, \(rowWords) row words")
                }
            }
        }
    }

    /// A set's rowids are merged in ascending lists, each rowid once, whatever order a damaged index gives them in.
    func testASetsRowidsAreMergedOnceEachInOrderWhateverTheIndexGives() {
        XCTAssertEqual(SearchIndex.ascending([5, 1, 5, .max, .min, 3]), [.min, 1, 3, 5, .max])
        XCTAssertEqual(SearchIndex.ascending([1, 2, 9]), [1, 2, 9])
        XCTAssertEqual(SearchIndex.union([1, 4, 9], [2, 4, 10, .max]), [1, 2, 4, 9, 10, .max])
        XCTAssertEqual(SearchIndex.union([], [3]), [3])
        XCTAssertEqual(SearchIndex.union([3], []), [3])
    }

    /// Porter's stem of `deployment` is `deploy`, which itself stems to `deploi`: that word is written as a
    /// surface form, not quoted as it is (which would search `deploi`) nor left to FTS5's prefix.
    func testAWordTheStemmerWouldChangeIsWrittenAsAFormThatStemsToIt() throws {
        try importMessages([
            ("INBOX", "1", "From: a@example.com\nMessage-ID: <d1@x>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: one\n\nthe deployment is done\n"),
            ("INBOX", "2", "From: a@example.com\nMessage-ID: <d2@x>\nDate: Tue, 2 Jan 2024 10:00:00 +0000\nSubject: two\n\ndeploying now\n"),
            ("INBOX", "3", "From: a@example.com\nMessage-ID: <d3@x>\nDate: Wed, 3 Jan 2024 10:00:00 +0000\nSubject: three\n\nnothing here\n"),
        ])
        let idx = try index()
        let words = try XCTUnwrap(try expansion("deplo*", idx))
        XCTAssertFalse(words.contains("*"), words)
        XCTAssertFalse(words.contains("\"deploy\""), words)
        XCTAssertEqual(try hits("deplo*", idx, expanded: true).count, 2)
        XCTAssertEqual(try hits("deplo*", idx, expanded: true), try hits("deplo*", idx, expanded: false))
        // The prefix is tokenized as FTS5 tokenizes it: `deploying*` is `deploi*`.
        XCTAssertEqual(try hits("Deploying*", idx, expanded: true), try hits("deploying*", idx, expanded: false))
        XCTAssertEqual(try hits("deploying*", idx, expanded: true).count, 1)
        // A prefix of two tokens is expanded as a phrase, its last token as a prefix alone; a prefix with no word
        // matches nothing, as FTS5's does.
        let phrase = try XCTUnwrap(try expansion("done-deplo*", idx))
        XCTAssertFalse(phrase.contains("*"), phrase)
        XCTAssertTrue(phrase.contains("\"done-"), phrase)
        XCTAssertEqual(try hits("done-deplo*", idx, expanded: true).count, 0, "'done' comes after 'deployment is'")
        XCTAssertEqual(try hits("deployment-is-do*", idx, expanded: true).count, 1)
        XCTAssertEqual(try hits("deployment-is-do*", idx, expanded: true), try hits("deployment-is-do*", idx, expanded: false))
        XCTAssertEqual(try hits("done-deplo*", idx, expanded: true), try hits("done-deplo*", idx, expanded: false))
        XCTAssertEqual(try hits("qqq*", idx, expanded: true), [])
        XCTAssertEqual(try hits("from:deplo*", idx, expanded: true), [], "the words are in the body only")
    }

    func testAPrefixOfMoreWordsThanTheBoundIsLeftToFTS5() throws {
        let many = (0..<(PrefixWords.maxWords + 10)).map { "zq\($0)" }.joined(separator: " ")
        try importMessages([
            ("INBOX", "1", "From: a@example.com\nMessage-ID: <z1@x>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: z\n\n\(many)\n"),
            ("INBOX", "2", "From: a@example.com\nMessage-ID: <z2@x>\nDate: Tue, 2 Jan 2024 10:00:00 +0000\nSubject: z\n\nzq5 zq17\n"),
        ])
        let idx = try index()
        XCTAssertNil(try expansion("zq*", idx))
        XCTAssertEqual(try hits("zq*", idx, expanded: true).count, 2)
        XCTAssertNotNil(try expansion("zq1*", idx), "zq1, zq10-19, zq100-199, zq1000-1999: 1,111 words")
        XCTAssertEqual(try hits("zq1*", idx, expanded: true), try hits("zq1*", idx, expanded: false))
        XCTAssertEqual(try hits("zq1*", idx, expanded: true).count, 2)
        // Light, its words are listed for their postings but not tokenized (30,000 words took ~3 s a search).
        let parsed = try SearchQuery.parse("zq*")
        let before = try XCTUnwrap(idx.prefixWords).tokenized
        XCTAssertEqual(try idx.locked { try idx.prefixExpansions(parsed.expr) }.heavy.count, 0)
        XCTAssertLessThan(try XCTUnwrap(idx.prefixWords).tokenized - before, 10, "the prefix only")
        // Heavy, its sets are still made from its words (up to `maxSetWords`), not from FTS5's prefix.
        idx.maxMergedPostings = 0
        let heavy = try idx.locked { try idx.prefixExpansions(parsed.expr) }.heavy
        XCTAssertEqual(heavy.values.first?.words, PrefixWords.maxWords + 10)
        XCTAssertGreaterThan(try XCTUnwrap(idx.prefixWords).tokenized - before, PrefixWords.maxWords)
        for query in ["NOT zq*", "zq* OR folder:Nope", "hello NOT zq*"] {
            XCTAssertEqual(try hits(query, idx, expanded: true), try hits(query, idx, expanded: false), query)
        }
        XCTAssertEqual(try hits("zq* OR folder:Nope", idx, expanded: true).count, 2)
    }

    /// A prefix of more words than even a set's listing takes (`maxSetWords`) is left to FTS5's prefix, heavy or not:
    /// the same matches, and none of its words tokenized.
    func testAPrefixOfMoreWordsThanASetsListingTakesIsLeftToFTS5() throws {
        let many = (0...PrefixWords.maxSetWords).map { "qv\($0)" }.joined(separator: " ")
        try importMessages([
            ("INBOX", "1", "From: a@example.com\nMessage-ID: <q1@x>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: q\n\n\(many)\n"),
            ("INBOX", "2", "From: a@example.com\nMessage-ID: <q2@x>\nDate: Tue, 2 Jan 2024 10:00:00 +0000\nSubject: q\n\nqv5 hello\n"),
            ("INBOX", "3", "From: a@example.com\nMessage-ID: <q3@x>\nDate: Wed, 3 Jan 2024 10:00:00 +0000\nSubject: q\n\nhello\n"),
        ])
        let idx = try index()
        idx.maxMergedPostings = 0
        let parsed = try SearchQuery.parse("qv*")
        let e = try idx.locked { try idx.prefixExpansions(parsed.expr) }
        XCTAssertEqual(e.heavy.count, 0)
        XCTAssertEqual(e.expressions.count, 0)
        XCTAssertLessThan(try XCTUnwrap(idx.prefixWords).tokenized, 10, "the prefix only")
        for query in ["qv*", "NOT qv*", "qv* OR folder:Nope"] {
            XCTAssertEqual(try hits(query, idx, expanded: true), try hits(query, idx, expanded: false), query)
        }
        XCTAssertEqual(try hits("NOT qv*", idx, expanded: true).count, 1)
    }

    /// A search that tests text in sets of every match (NOT, a filter under OR) runs over rowid windows from its
    /// first results on, each with sets of its own matches, dropped after it: stopped after a few results, its sets
    /// held the matches of the windows it ran over only; run to the end, it finds what one window over everything
    /// finds, either way, as of a point too.
    func testASearchThatTestsTextInSetsRunsOverWindowsFromItsFirstResults() throws {
        var messages: [(folder: String, name: String, text: String)] = []
        // Two messages a second: neighbouring rowids, a window's edge between them or not.
        for i in 0..<40 {
            let body = i % 3 == 0 ? "nothing" : "rollout \(i)"
            messages.append((i % 4 == 0 ? "Archive" : "INBOX", "w\(i)", "From: a@example.com\nMessage-ID: <w\(i)@x>\n"
                             + "Date: \(1 + i / 48) Mar 2024 \(String(format: "%02d", i / 2 % 24)):00:00 +0000\nSubject: s\(i)\n\n\(body)\n"))
        }
        try importMessages(messages)
        let idx = try index()
        // And rows with neighbouring rowids (no text: `NOT` finds them), a window's edge falling between two.
        let base = SearchSchema.rowid(atSecond: 1_709_271_000)
        for i in 0..<6 {
            try idx.db.exec("""
                INSERT INTO docs(rowid, email_id, account, folder, message_id, flags, category, date, size, subject, participants, since)
                VALUES(\(base + Int64(i)), 'near-\(i)', 'local', 'INBOX', NULL, 0, 0, 0, 0, 'near', '', 1)
                """)
        }
        func run(_ text: String, oldestFirst: Bool, first: Int?) throws -> (hits: [String], setRows: Int) {
            let (hits, rows) = try searchCountingSets(idx, text, oldestFirst: oldestFirst, first: first)
            return (hits, rows["every"] ?? 0)
        }
        let head = try store.log.head().sequence
        for point in [nil, head, head / 2] as [UInt64?] {
            idx.asOf = point
            for text in ["NOT ro*", "ro* OR folder:Archive", "NOT rollout", "NOT (ro* OR folder:Archive)"] {
                for oldestFirst in [false, true] {
                    let what = "\(text) as of \(point.map(String.init) ?? "now"), oldest first: \(oldestFirst)"
                    idx.firstSetWindow = Int.max / 2
                    let whole = try run(text, oldestFirst: oldestFirst, first: nil)
                    for first in [2, 3, 6] {
                        idx.firstSetWindow = first
                        XCTAssertEqual(try run(text, oldestFirst: oldestFirst, first: nil).hits, whole.hits, "\(what), first window \(first)")
                    }
                    if text.hasPrefix("NOT") { XCTAssertEqual(whole.hits.filter { $0.hasPrefix("near-") }.count, 6, what) }
                    if point == nil, whole.hits.count > 3 {
                        let few = try run(text, oldestFirst: oldestFirst, first: 3)
                        XCTAssertEqual(few.hits, Array(whole.hits.prefix(3)), what)
                        XCTAssertLessThan(few.setRows, whole.setRows, "\(what): sets of the first windows only")
                    }
                }
            }
        }
        idx.asOf = nil
        idx.firstSetWindow = SearchIndex.defaultFirstSetWindow
    }

    /// Imports six threads of three messages whose copies lie among each other's (replies a day apart, the threads
    /// an hour apart), `text` the body of each but the second reply of every other thread ("nothing here"), and other
    /// mail between every two copies (`other` its body); returns the threads page of a query.
    func importInterleavedThreads(text: (Int) -> String, other: String) throws -> (SearchIndex, (String) throws -> [SearchThreadHit]) {
        var messages: [(folder: String, name: String, text: String)] = []
        for t in 0..<6 {
            for r in 0..<3 {
                let reply = r == 0 ? "" : "In-Reply-To: <t\(t)r0@x>\nReferences: <t\(t)r0@x>\n"
                let body = r == 2 && t % 2 == 1 ? "nothing here" : text(r)
                messages.append(("INBOX", "t\(t)r\(r)", "From: a\(t)@example.com\nMessage-ID: <t\(t)r\(r)@x>\n\(reply)"
                                 + "Date: \(r + 1) Mar 2024 \(String(format: "%02d", 10 + t)):00:00 +0000\nSubject: \(r == 0 ? "" : "Re: ")plan \(t)\n\n\(body)\n"))
                messages.append(("INBOX", "o\(t)r\(r)", "From: c@example.com\nMessage-ID: <o\(t)r\(r)@x>\n"
                                 + "Date: \(r + 1) Mar 2024 \(String(format: "%02d", 10 + t)):30:00 +0000\nSubject: other\n\n\(other)\n"))
            }
        }
        try importMessages(messages)
        let idx = try index()
        let views = try store.openViews()
        return (idx, { query in
            try idx.searchThreads(try SearchQuery.parse(query), offset: 0, limit: 50, threadOf: { try views.emailRecord(id: $0)?.threadID },
                                  threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        })
    }

    /// A page's threads, their copies dated among each other's and other mail's, are matched together for a prefix
    /// query: one statement over the rowid span of all their copies, not one per thread (each seeks every word of the
    /// prefix), each thread given the same copies as matched on its own; with every gap that holds other mail cut
    /// (more spans than threads), or more copies than are matched together (`maxCopiesMatchedTogether`), one by one.
    func testAPagesThreadsAreMatchedTogetherOverTheSpansOfTheirCopies() throws {
        let (idx, page) = try importInterleavedThreads(text: { "rollout step \($0)" }, other: "news")
        let views = try store.openViews()
        // As of every point too (copies received, some not yet categorized: versions held).
        var pages = Set<Int>()
        for point in 1...(try store.log.head().sequence) {
            idx.asOf = point
            let threads = try page("ro*")
            pages.insert(threads.count)
            for thread in threads {
                let alone = try idx.matching(try SearchQuery.parse("ro*"), among: try views.threadEmails(id: thread.threadID).map(\.id))
                XCTAssertEqual(Set(thread.emailIDs), alone, "as of \(point): \(thread.first.subject)")
            }
        }
        XCTAssertGreaterThan(pages.count, 3, "pages of several sizes as of the points")
        idx.asOf = nil
        for query in ["ro*", "rollo* OR nothing", "ro* -step"] {
            for (gap, most) in [(SearchIndex.defaultPointSpanGap, SearchIndex.defaultMaxCopiesMatchedTogether), (0, SearchIndex.defaultMaxCopiesMatchedTogether),
                                (SearchIndex.defaultPointSpanGap, 17)] {
                idx.pointSpanGap = gap
                idx.maxCopiesMatchedTogether = most
                let before = idx.threadStatements
                let threads = try page(query)
                let statements = idx.threadStatements - before
                for thread in threads {
                    let alone = try idx.matching(try SearchQuery.parse(query), among: try views.threadEmails(id: thread.threadID).map(\.id))
                    XCTAssertEqual(Set(thread.emailIDs), alone, "\(query) (gap \(gap)): \(thread.first.subject)")
                }
                if query == "ro* -step" {
                    XCTAssertEqual(threads.count, 0, query)
                    continue
                }
                XCTAssertEqual(threads.count, 6, query)
                XCTAssertEqual(threads.map(\.emailIDs.count).sorted(), query == "ro*" ? [2, 2, 2, 3, 3, 3] : [3, 3, 3, 3, 3, 3], query)
                if gap == 0 || most < 18 {
                    XCTAssertGreaterThanOrEqual(statements, threads.count, "\(query): every gap cut, or more copies than matched together (18 > \(most)): each thread on its own")
                } else {
                    XCTAssertEqual(statements, 1, "\(query): the threads' copies lie in one span")
                }
            }
        }
        idx.pointSpanGap = SearchIndex.defaultPointSpanGap
        idx.maxCopiesMatchedTogether = SearchIndex.defaultMaxCopiesMatchedTogether
    }

    /// A prefix left to FTS5's own prefix query (not expanded: more words than a prefix expands to) is matched for a
    /// page's threads by one statement over the rowids between their copies, never by a statement per thread or by
    /// looking copies up (FTS5 merges the prefix's postings again for each rowid of a list: `re-re-m*` at 1M generated
    /// messages took 32 s a page, `re-m*` 259 s); each thread gets the copies it gets matched alone.
    func testAPrefixLeftToFTS5IsMatchedForAPagesThreadsByOneStatement() throws {
        let (idx, page) = try importInterleavedThreads(text: { "re-rollout step \($0)" }, other: "re-route rome")
        let views = try store.openViews()
        var expected: [String: [Int]] = [:]
        for query in ["re-ro*", "ro*", "re-ro* -step"] {
            expected[query] = try page(query).map(\.emailIDs.count).sorted()
        }
        XCTAssertGreaterThan(expected["re-ro*"]?.count ?? 0, 6, "the threads and the other mail (`re-route`)")
        XCTAssertEqual(expected["re-ro*"]?.filter { $0 > 1 }, [2, 2, 2, 3, 3, 3])
        idx.maxExpandedWords = 1
        defer { idx.maxExpandedWords = PrefixWords.maxWords }
        for point in [nil] + Array(1...(try store.log.head().sequence)).map(Optional.some) {
            idx.asOf = point
            for query in ["re-ro*", "ro*", "re-ro* -step"] {
                let before = idx.threadStatements
                let threads = try page(query)
                let statements = idx.threadStatements - before
                if point == nil { XCTAssertEqual(threads.map(\.emailIDs.count).sorted(), expected[query], query) }
                for thread in threads {
                    let alone = try idx.matching(try SearchQuery.parse(query), among: try views.threadEmails(id: thread.threadID).map(\.id))
                    XCTAssertEqual(Set(thread.emailIDs), alone, "\(query) as of \(String(describing: point)): \(thread.first.subject)")
                }
                if threads.count > 1 { XCTAssertEqual(statements, 1, "\(query) as of \(String(describing: point)): one statement for the page") }
            }
        }
    }

    /// A phrase prefix's words weigh `phraseWordSteps` each in the budget of a statement whose filter or NOT may
    /// reject the rows its text matches (`category:updates re-m*` at 1M: 27.3 s with them weighing one, 1.8 s), one
    /// each where every row stepped is a hit.
    func testAPhrasePrefixsWordsWeighMoreWhereAFilterMayRejectTheRows() throws {
        let (idx, _) = try importInterleavedThreads(text: { "re-rollout step \($0)" }, other: "re-route rome")
        let phrase = try idx.locked { try idx.prefixExpansions(try SearchQuery.parse("re-ro*").expr) }
        let single = try idx.locked { try idx.prefixExpansions(try SearchQuery.parse("ro*").expr) }
        XCTAssertGreaterThan(phrase.words, 1)
        XCTAssertEqual(phrase.stepWords, phrase.words * SearchIndex.phraseWordSteps)
        XCTAssertEqual(single.stepWords, single.words)
        for (query, rejects) in [("re-ro*", false), ("re-ro* ro* OR step", false), ("category:updates re-ro*", true),
                                 ("re-ro* -step", true), ("(re-ro* OR folder:Archive) step", true)] {
            XCTAssertEqual(QueryCompiler.mayRejectMatches(try SearchQuery.parse(query).expr), rejects, query)
        }
    }

    /// A thread's first and last message, with more matches between them than looking both up costs: the
    /// span is given up for lookups, and both are still marked.
    func testAThreadsMatchesAreFoundByLookupsWhenItsSpanHoldsManyOthers() throws {
        var messages: [(folder: String, name: String, text: String)] = [
            ("INBOX", "first", "From: a@example.com\nMessage-ID: <t1@x>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: plan\n\nthe rollout plan\n"),
            ("INBOX", "last", "From: b@example.com\nMessage-ID: <t2@x>\nIn-Reply-To: <t1@x>\nReferences: <t1@x>\nDate: Mon, 1 Apr 2024 10:00:00 +0000\nSubject: Re: plan\n\nrollout done\n"),
        ]
        for i in 0..<(2 * SearchIndex.lookupRows + 20) {
            messages.append(("INBOX", "o\(i)", "From: c@example.com\nMessage-ID: <o\(i)@x>\nDate: Thu, 1 Feb 2024 10:\(String(format: "%02d", i % 60)):00 +0000\nSubject: other \(i)\n\nrollout news \(i)\n"))
        }
        try importMessages(messages)
        let idx = try index()
        let views = try store.openViews()
        let members = try [emailID("t1@x"), emailID("t2@x")]
        for query in ["rollout", "rollo*", "roll* -zzz"] {
            XCTAssertEqual(try idx.matching(try SearchQuery.parse(query), among: members), Set(members), query)
            let page = try idx.searchThreads(try SearchQuery.parse(query), offset: 0, limit: 50,
                                             threadOf: { try views.emailRecord(id: $0)?.threadID },
                                             threadEmails: { try views.threadEmails(id: $0).map(\.id) })
            let thread = try XCTUnwrap(page.first { $0.emailIDs.contains(members[0]) })
            XCTAssertEqual(Set(thread.emailIDs), Set(members), query)
        }
        // A prefix left to FTS5's prefix query: the span, whatever it steps, in one statement (a lookup would merge
        // the prefix's postings again for each copy).
        idx.maxExpandedWords = 0
        defer { idx.maxExpandedWords = PrefixWords.maxWords }
        for query in ["rollo*", "roll* -zzz"] {
            let before = idx.threadStatements
            XCTAssertEqual(try idx.matching(try SearchQuery.parse(query), among: members), Set(members), query)
            XCTAssertEqual(idx.threadStatements - before, 1, "\(query): the thread's span, not lookups")
        }
        idx.maxExpandedWords = PrefixWords.maxWords
        // A page whose query tests membership (NOT beside no word) makes a set for its statement's window (here
        // the whole index: fewer documents than `firstSetWindow`) and one for the thread's span, and drops them
        // after.
        let made = idx.setsMade
        let page = try idx.searchThreads(try SearchQuery.parse("NOT news"), offset: 0, limit: 50,
                                         threadOf: { try views.emailRecord(id: $0)?.threadID },
                                         threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        XCTAssertEqual(page.count, 1)
        XCTAssertEqual(Set(page[0].emailIDs), Set(members))
        XCTAssertEqual(idx.setsMade, made + 2)
        let left = try idx.locked { () throws(SearchIndexError) -> Int64 in
            let s = try idx.db.prepare("SELECT count(*) FROM temp.sqlite_master WHERE name LIKE 'search_set_%'")
            try s.bind([])
            _ = try s.step()
            return s.int(0)
        }
        XCTAssertEqual(left, 0, "the page's sets are dropped")
        XCTAssertEqual(try idx.matching(try SearchQuery.parse("plan"), among: members), Set(members))
        XCTAssertEqual(try idx.matching(try SearchQuery.parse("done"), among: members), [members[1]])
    }
    /// A prefix of several tokens lists at most the bound divided by its tokens, so its expansion (a phrase of all
    /// of them per word) holds at most the bound's tokens; past it the listing is not complete.
    func testAPrefixOfManyTokensListsFewerWords() throws {
        let words = try PrefixWords()
        func listing(_ text: String, most: Int) throws -> PrefixListing? {
            try words.listing(of: TextTerm(text: text, isPrefix: true), most: most) { from, body in
                if from == "t" {
                    for i in 0..<300 where !body("t" + String(format: "%03d", i), true, 1) { return }
                } else {
                    _ = body(from, true, 1)
                }
            }
        }
        XCTAssertEqual(try XCTUnwrap(listing("t", most: 2_048)).words.count, 300)
        XCTAssertEqual(try XCTUnwrap(listing("ab-t", most: 600)).words.count, 300, "2 tokens: 300 words of 600")
        XCTAssertEqual(try XCTUnwrap(listing("ab-t", most: 300)).words.count, 300,
                       "2 tokens: as many words as one (`re-m*` at 1M, 1,539 words, had been left to FTS5: 259 s a page)")
        XCTAssertFalse(try XCTUnwrap(listing("ab-cd-t", most: 400)).complete, "3 tokens: at most 266 words of 400")
        let long = try XCTUnwrap(listing("ab-cd-ef-gh-t", most: 600))
        XCTAssertFalse(long.complete, "5 tokens: at most 240 words")
        XCTAssertEqual(long.lead, "ab-cd-ef-gh-")
    }
}
