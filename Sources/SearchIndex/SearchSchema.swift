import SearchQuery

/// The index's SQLite schema. Bump `version` whenever the tables, the tokenizer or what a document
/// holds changes: an index with another version is rebuilt from the log on open.
///
/// - `meta(key, value)`: `schema_version`, `checkpoint` (the last log sequence folded, written in the same
///   transaction as the rows it produced).
/// - `docs`: one row per email copy present now. Its rowid orders by date: `seconds << 20 | slot`, so newest-first
///   results stream from FTS5 in rowid order with no sort, and a date range is a rowid range. `since`: the log
///   sequence from which the row's values hold (its `EmailReceived`, or the last event that changed them).
///   Indexed by Message-ID, by `since`, by folder (case-insensitive, as `folder:` compares) and by account.
/// - `docs_past`: the values a copy had before: each time an event changes a row (a move, flags, a category) or
///   removes it (an expunge), the row as it was goes here with `until`, that event's sequence. With `docs`, it
///   says what every copy was at any point of the log: a copy's version at `p` is the one with
///   `since <= p < until` (`until` of a `docs` row: now). A search as of a past point reads both
///   (`QueryCompiler.asOf`) instead of folding an index up to that point. Keyed by (rowid, since); indexed by
///   email id (a thread's copies at a point) and by (until, since) (the versions that held at a point, found
///   without reading the others: `until` grows as the log does, so that index is appended to), and, as `docs`,
///   by folder, account and Message-ID (the versions a search's `folder:`, `account:` and `id:` admit).
/// - `own_drafts(account, message_id)`: the Message-IDs of our drafts' copies in the server's Drafts folder
///   (`DraftCopyChanged`): sync brings them back as mail, and they are not indexed (a draft is not mail).
/// - `fts`: FTS5 over the text columns (each in the indexed form, `IndexedText`, as the queries' words are),
///   rowid = `docs.rowid`; tokenizer unicode61 with diacritics removed,
///   wrapped in the Porter stemmer (English), as notmuch stems (Xapian's English stemmer); `_` is a word
///   character (`notmuch_query_search` is one word), as in Xapian. Contentless (`content=''`): only the
///   index, no copy of the text (queries read `docs`, never the text).
/// - `doc_text(rowid, seq, digest)`: for each indexed document, the sequence of its `EmailReceived` and a digest
///   of its text columns as indexed (`SearchTextDigest`): removing its terms (FTS5's `'delete'` needs the values
///   indexed) derives them again from the log and the message, and uses them only when their digest is this one;
///   `verify --views` compares these. A rowid is taken while it has a row here: its terms are in `fts`. An
///   expunged copy keeps its terms and its row here (a search as of a point before the expunge finds it).
/// - `terms(term, col, docs, cnt)`: the vocabulary of `fts`, as `fts5vocab`'s `col` table gives it (`col`: the
///   column's position in `textColumns`): a prefix's words and their occurrences are a range of it, where
///   `fts5vocab` reads every posting of every word it lists (`t` at 1M generated messages: 0.6-1.1 s). Current
///   through the checkpoint in `meta` `terms` (`SearchIndex.termsCurrent`): a live batch adds its documents' terms
///   in its transaction; a build, a large catch-up or an upgrade makes it again from `fts5vocab` at its end; until
///   then queries list words from `fts5vocab`. Terms only grow: an expunged copy's terms stay in `fts`.
enum SearchSchema {
    /// 1: first version. 2: a rollback journal instead of WAL, so a rebuilt file can be renamed over one
    /// that other processes have open (no -wal/-shm files that belong to a name rather than a file).
    /// 3: our drafts' server copies left out (`own_drafts`). 4: `fts` contentless, the text packed in
    /// `doc_text` (the index file at 100K generated messages: 332 MB with FTS5's own copy of the text).
    /// 5: `doc_text` keeps a digest of the text and the sequence to derive it from, not the text (79 of the 239 MB).
    /// 6: `docs.since` and `docs_past` (the values each copy had before, for a search as of a past point); an
    /// expunged copy's terms stay in `fts`. 7: `terms`, the vocabulary of `fts` (a prefix's words read from it rather
    /// than from `fts5vocab`); a version 6 file was upgraded in place. 8: `docs` and `docs_past`
    /// indexed by folder and account, `docs_past` by Message-ID (the copies a search's `folder:`, `account:` and `id:`
    /// admit, read before its text: `SearchIndex.filterRowids`); a version 6 or 7 file was upgraded in place.
    /// 9: the subject and body text without terminal escape sequences (`EscapeSequence`: `ESC [ 31 m RED` indexed
    /// `31mred`); the text of an older file's documents is not what they derive to now, so it is rebuilt.
    /// 10: a part's text decoded from a window of its body (`TextWindow`), cut at a Unicode scalar's end, an HTML
    /// part's from its first `SearchDocument.maxHTMLBytes`: ordinary mail indexes the same text, but a body of
    /// several MiB may derive to other text than a version 9 file indexed (its digest would no longer match), so
    /// it is rebuilt.
    /// 11: the text columns in the indexed form (`IndexedText`: composed, Greek without its marks, ё as е), as the
    /// queries' words are: text written decomposed (a macOS file name) and Greek with its accents were indexed as
    /// they came, found by no word typed the other way; an older file is rebuilt.
    /// 12: an address at an internationalised domain also indexed as people read it (`user@bücher.example` after
    /// `user@xn--bcher-kva.example`: `SearchDocument.addresses`), so a search finds it by either form; rebuilt.
    /// 13: that readable form under the display rules as browsers apply them (`IDNA`: a zero-width joiner after a
    /// virama allowed; scripts mixed only as Chromium's policy allows, whole-script lookalikes of Greek, Armenian and
    /// others refused); rebuilt.
    ///
    /// Files made since 2026-12-02 declare `fts` with `columnsize = 0`: FTS5 then keeps no row of token counts per
    /// document (`fts_docsize`, a B-tree keyed by the scattered rowids, written at every insert), which only its
    /// ranking functions read (`bm25`, `xColumnSize`) and no query here uses. A file made before keeps that table,
    /// and FTS5 keeps it current: both read and verify alike, so the version is unchanged and no file is rebuilt.
    /// At 100K generated messages, `replay --view search` alternated three times with the build before: 8.4-9.8 s
    /// against 8.8-10.7 s, 11.7-13.4 s of CPU against 12.5-14.9 s.
    static let version = 13

    /// The FTS5 columns, in insert order; the query language's text fields map onto them.
    static let textColumns = ["fromaddr", "toaddr", "ccaddr", "subject", "body", "attachment", "mimetype"]

    /// Bits of a rowid below the date's seconds.
    static let slotBits: Int64 = 20
    /// Dates are clamped to +-2^40 seconds (about 35,000 years) so the rowid fits.
    static let maxSeconds: Int64 = 1 << 40

    static let create = """
    CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS docs(
        rowid INTEGER PRIMARY KEY,
        email_id TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        folder TEXT NOT NULL,
        message_id TEXT,
        flags INTEGER NOT NULL,
        category INTEGER NOT NULL DEFAULT 0,
        date INTEGER NOT NULL,
        size INTEGER NOT NULL,
        subject TEXT NOT NULL,
        participants TEXT NOT NULL,
        since INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS docs_past(
        rowid INTEGER NOT NULL,
        since INTEGER NOT NULL,
        until INTEGER NOT NULL,
        email_id TEXT NOT NULL,
        account TEXT NOT NULL,
        folder TEXT NOT NULL,
        message_id TEXT,
        flags INTEGER NOT NULL,
        category INTEGER NOT NULL,
        date INTEGER NOT NULL,
        size INTEGER NOT NULL,
        subject TEXT NOT NULL,
        participants TEXT NOT NULL,
        PRIMARY KEY(rowid, since)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS own_drafts(account TEXT NOT NULL, message_id TEXT NOT NULL,
        PRIMARY KEY(account, message_id)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS doc_text(rowid INTEGER PRIMARY KEY, seq INTEGER NOT NULL, digest BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS terms(term TEXT NOT NULL, col INTEGER NOT NULL, docs INTEGER NOT NULL, cnt INTEGER NOT NULL,
        PRIMARY KEY(term, col)) WITHOUT ROWID;
    CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
        fromaddr, toaddr, ccaddr, subject, body, attachment, mimetype, content = '', columnsize = 0,
        tokenize = \(tokenizer));
    """

    /// The indexes only queries read (the rows a search's filters admit: `SearchIndex.filterRowids`; a search as of a
    /// point: `since`, `until`; a thread's copies then: `docs_past` by email id): made when a file is opened live
    /// (any missing: a file of this version made before one was added gets it then), and by a build once its rows
    /// are in (`SearchIndex.makeQueryIndexes`; at 100K generated messages 0.3 s for five of them, where kept up
    /// through the build's inserts they added ~1.1 s to its ~10.4; at 1M the four keyed at random or by sequence
    /// moved here on 2026-12-01 took a build from 52 to 21.6 GB written). None is read by a fold.
    static var queryIndexes: String { queryIndexDefinitions.map(createIndex).joined(separator: "\n") }

    /// `queryIndexes` one by one, each its name and what it indexes: a build's end makes them one at a time, each
    /// when it is expected to fit (`SearchIndex.goOnWithEnd`).
    static let queryIndexDefinitions: [(name: String, on: String)] = [
        ("docs_message_id", "docs(message_id)"),
        ("docs_since", "docs(since)"),
        ("docs_past_email_id", "docs_past(email_id)"),
        ("docs_past_until", "docs_past(until, since)"),
        ("docs_folder", "docs(folder COLLATE NOCASE)"),
        ("docs_account", "docs(account)"),
        ("docs_past_folder", "docs_past(folder COLLATE NOCASE)"),
        ("docs_past_account", "docs_past(account)"),
        ("docs_past_message_id", "docs_past(message_id)"),
    ]

    /// The statement making the query index `definition` (one of `queryIndexDefinitions`) where it is missing.
    static func createIndex(_ definition: (name: String, on: String)) -> String {
        "CREATE INDEX IF NOT EXISTS \(definition.name) ON \(definition.on);"
    }

    /// The statement inserting a document's rowid and text columns (`textColumns` order) into the FTS5 table
    /// `table` (the index's `fts`, `TermCounter`'s scratch table).
    static func textInsert(into table: String) -> String {
        let values = Array(repeating: "?", count: textColumns.count + 1).joined(separator: ", ")
        return "INSERT INTO \(table)(rowid, \(textColumns.joined(separator: ", "))) VALUES(\(values))"
    }

    /// The `fts` table's tokenizer, as an SQL string literal: `PrefixWords` tokenizes with the same one.
    static let tokenizer = "'porter unicode61 remove_diacritics 2 tokenchars ''_'''"

    /// The columns a text field's words are in (no field: all but `mimetype`).
    static func columns(of field: TextField?) -> [String] {
        switch field {
        case nil: return ["fromaddr", "toaddr", "ccaddr", "subject", "body", "attachment"]
        case .from: return ["fromaddr"]
        case .to: return ["toaddr", "ccaddr"]
        case .cc: return ["ccaddr"]
        case .subject: return ["subject"]
        case .body: return ["body"]
        case .attachment: return ["attachment"]
        case .mimetype: return ["mimetype"]
        }
    }

    /// The lowest rowid of dates at or after `seconds`.
    static func rowid(atSecond seconds: Int64) -> Int64 {
        max(-maxSeconds, min(maxSeconds, seconds)) << slotBits
    }
}
