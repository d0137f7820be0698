// The SQLite baseline of the thread-list benchmark: the same data in a straightforward state-based SQLite
// schema, shaped the way a typical app built on the client's Thread List spec stores it (Folder, Email, the
// EmailFolder many-to-many join table, Thread with its denormalised counters; spec 001 §5 "Thread↔Folder
// Resolution": Folder → EmailFolder → Email → Thread), queried the way such an app queries it.
//
// It is meant as a fair, competent baseline, not a strawman: WAL, synchronous=NORMAL, the indexes a careful
// developer adds for these screens, ANALYZE after the bulk load, statements prepared once (persistent) and
// reused with reset/clear_bindings, one statement per query shape (no `? IS NULL OR …` catch-alls that defeat
// the planner), keyset (cursor) pagination on (latestDate, id) using row values that walk the index.
import CSQLite

/// A mail folder (label). `role`: "inbox", "sent", "drafts", "trash", "spam", "archive" or "custom".
struct BaselineFolder {
    var id: String
    var accountId: String
    var name: String
    var role: String
}

/// One message; `folderIds` become EmailFolder rows (the same email may be in several folders).
struct BaselineEmail {
    var id: String
    var threadId: String
    var accountId: String
    /// Microseconds since the epoch.
    var date: Int64
    var isRead: Bool
    var folderIds: [String]
}

/// One conversation with the denormalised fields the thread list displays.
/// `aiCategory`: "primary", "social", "promotions", "updates", "forums" or "uncategorized".
struct BaselineThread {
    var id: String
    var accountId: String
    var subject: String
    /// JSON array of `{"name": String?, "email": String}`, most recent sender first.
    var participantsJSON: String
    var snippet: String
    /// Microseconds since the epoch.
    var latestDate: Int64
    var messageCount: Int
    var unreadCount: Int
    var isStarred: Bool
    var hasAttachments: Bool
    var aiCategory: String
}

/// A failed sqlite3 call: which call, on which statement, with SQLite's result code and message.
struct SQLiteBaselineError: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var message: String

    var description: String { "\(call) failed: \(message) (SQLite result code \(code))" }
}

/// The state-based SQLite store of the benchmark. Not thread-safe: one connection, used from one thread.
final class SQLiteBaseline {
    /// The schema. Ids are TEXT (the app's UUID/string ids); booleans are INTEGER 0/1; dates are µs INTEGER.
    static let schema = """
        CREATE TABLE IF NOT EXISTS Folder (
            id        TEXT PRIMARY KEY NOT NULL,
            accountId TEXT NOT NULL,
            name      TEXT NOT NULL,
            role      TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS Folder_accountId_role ON Folder(accountId, role);

        CREATE TABLE IF NOT EXISTS Thread (
            id             TEXT PRIMARY KEY NOT NULL,
            accountId      TEXT NOT NULL,
            subject        TEXT NOT NULL,
            participants   TEXT NOT NULL,
            snippet        TEXT NOT NULL,
            latestDate     INTEGER NOT NULL,
            messageCount   INTEGER NOT NULL,
            unreadCount    INTEGER NOT NULL,
            isStarred      INTEGER NOT NULL,
            hasAttachments INTEGER NOT NULL,
            aiCategory     TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS Thread_accountId_latestDate
            ON Thread(accountId, latestDate DESC, id DESC);
        CREATE INDEX IF NOT EXISTS Thread_accountId_aiCategory_latestDate
            ON Thread(accountId, aiCategory, latestDate DESC, id DESC);

        CREATE TABLE IF NOT EXISTS Email (
            id        TEXT PRIMARY KEY NOT NULL,
            threadId  TEXT NOT NULL REFERENCES Thread(id) ON DELETE CASCADE,
            accountId TEXT NOT NULL,
            date      INTEGER NOT NULL,
            isRead    INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS Email_threadId ON Email(threadId, id);
        CREATE INDEX IF NOT EXISTS Email_accountId_isRead ON Email(accountId, isRead, id);

        CREATE TABLE IF NOT EXISTS EmailFolder (
            emailId  TEXT NOT NULL REFERENCES Email(id) ON DELETE CASCADE,
            folderId TEXT NOT NULL REFERENCES Folder(id) ON DELETE CASCADE,
            PRIMARY KEY (emailId, folderId)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS EmailFolder_folderId_emailId ON EmailFolder(folderId, emailId);
        """

    /// The columns of a full thread row, in `BaselineThread` order.
    private static let threadColumns = """
        t.id, t.accountId, t.subject, t.participants, t.snippet, t.latestDate, t.messageCount, \
        t.unreadCount, t.isStarred, t.hasAttachments, t.aiCategory
        """

    private var db: OpaquePointer?
    /// Page statements indexed by `shapeIndex(category:after:)`: ids only, and full rows.
    private var pageIds: [SQLiteBaselineStatement] = []
    private var pageFull: [SQLiteBaselineStatement] = []
    private var badge: SQLiteBaselineStatement!

    /// Opens (creating if needed) the database at `path`, applies the connection settings and creates the schema.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        db = handle
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            db = nil
            throw SQLiteBaselineError(call: "sqlite3_open_v2(\(path))", code: rc, message: message)
        }
        try check(sqlite3_extended_result_codes(handle, 1), "sqlite3_extended_result_codes")
        try check(sqlite3_busy_timeout(handle, 5_000), "sqlite3_busy_timeout")

        // The usual settings of an app database.
        let mode = try scalarText("PRAGMA journal_mode = WAL")
        guard mode.lowercased() == "wal" else {
            throw SQLiteBaselineError(call: "PRAGMA journal_mode = WAL", code: SQLITE_ERROR,
                                      message: "journal mode is \(mode), not wal")
        }
        try exec("PRAGMA synchronous = NORMAL")
        try exec("PRAGMA foreign_keys = ON")
        try exec("PRAGMA temp_store = MEMORY")
        try exec(Self.schema)
        try prepareQueries()
    }

    deinit {
        pageIds.removeAll()
        pageFull.removeAll()
        badge = nil  // the statements are finalized (by their deinit) before the connection closes
        sqlite3_close_v2(db)  // a deinit cannot throw; close_v2 cannot fail with every statement finalized
    }

    // MARK: - Load

    /// Bulk insert in one transaction with prepared statements, then ANALYZE so the planner knows the data.
    func load(folders: [BaselineFolder], threads: [BaselineThread], emails: [BaselineEmail]) throws {
        let insertFolder = try SQLiteBaselineStatement(db, "insertFolder",
            "INSERT INTO Folder(id, accountId, name, role) VALUES (?1, ?2, ?3, ?4)")
        let insertThread = try SQLiteBaselineStatement(db, "insertThread", """
            INSERT INTO Thread(id, accountId, subject, participants, snippet, latestDate, messageCount,
                               unreadCount, isStarred, hasAttachments, aiCategory)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """)
        let insertEmail = try SQLiteBaselineStatement(db, "insertEmail",
            "INSERT INTO Email(id, threadId, accountId, date, isRead) VALUES (?1, ?2, ?3, ?4, ?5)")
        let insertEmailFolder = try SQLiteBaselineStatement(db, "insertEmailFolder",
            "INSERT INTO EmailFolder(emailId, folderId) VALUES (?1, ?2)")

        try exec("BEGIN IMMEDIATE")
        do {
            for f in folders {
                try insertFolder.bind(1, f.id)
                try insertFolder.bind(2, f.accountId)
                try insertFolder.bind(3, f.name)
                try insertFolder.bind(4, f.role)
                try insertFolder.run()
            }
            for t in threads {
                try insertThread.bind(1, t.id)
                try insertThread.bind(2, t.accountId)
                try insertThread.bind(3, t.subject)
                try insertThread.bind(4, t.participantsJSON)
                try insertThread.bind(5, t.snippet)
                try insertThread.bind(6, t.latestDate)
                try insertThread.bind(7, Int64(t.messageCount))
                try insertThread.bind(8, Int64(t.unreadCount))
                try insertThread.bind(9, t.isStarred)
                try insertThread.bind(10, t.hasAttachments)
                try insertThread.bind(11, t.aiCategory)
                try insertThread.run()
            }
            for e in emails {
                try insertEmail.bind(1, e.id)
                try insertEmail.bind(2, e.threadId)
                try insertEmail.bind(3, e.accountId)
                try insertEmail.bind(4, e.date)
                try insertEmail.bind(5, e.isRead)
                try insertEmail.run()
                for folderId in e.folderIds {
                    try insertEmailFolder.bind(1, e.id)
                    try insertEmailFolder.bind(2, folderId)
                    try insertEmailFolder.run()
                }
            }
            try exec("COMMIT")
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)  // best effort: the original error is the one to report
            throw error
        }
        try exec("ANALYZE")
        // The planner reads sqlite_stat1 when a statement is prepared: re-prepare the queries.
        try prepareQueries()
    }

    // MARK: - Queries

    /// The thread-list page: threads of `accountId` having any email in `folderId`, optionally of one
    /// `category` (nil = All), newest `latestDate` first, ties broken by thread id descending; `after` is the
    /// (latestDate, id) of the last row of the previous page (nil = first page). Returns thread ids in order.
    func page(accountId: String, folderId: String, category: String?, after: (Int64, String)?, limit: Int) throws -> [String] {
        let s = pageIds[Self.shapeIndex(category: category, after: after)]
        do {
            try bindPage(s, accountId: accountId, folderId: folderId, category: category, after: after, limit: limit)
            var ids: [String] = []
            ids.reserveCapacity(limit)
            while try s.step() {
                ids.append(s.text(0))
            }
            try s.finish()
            return ids
        } catch {
            s.reset()
            throw error
        }
    }

    /// The same page, fetching every Thread column and materialising each row as the app would.
    /// Returns the number of rows read.
    func pageRows(accountId: String, folderId: String, category: String?, after: (Int64, String)?, limit: Int) throws -> Int {
        let s = pageFull[Self.shapeIndex(category: category, after: after)]
        do {
            try bindPage(s, accountId: accountId, folderId: folderId, category: category, after: after, limit: limit)
            var rows: [BaselineThread] = []
            rows.reserveCapacity(limit)
            while try s.step() {
                rows.append(BaselineThread(
                    id: s.text(0), accountId: s.text(1), subject: s.text(2), participantsJSON: s.text(3),
                    snippet: s.text(4), latestDate: s.int64(5), messageCount: Int(s.int64(6)),
                    unreadCount: Int(s.int64(7)), isStarred: s.int64(8) != 0, hasAttachments: s.int64(9) != 0,
                    aiCategory: s.text(10)))
            }
            try s.finish()
            return rows.count
        } catch {
            s.reset()
            throw error
        }
    }

    /// The unread badge: unread emails in the account's folders with role "inbox" (an email counted once even
    /// if it sits in two inbox-role folders).
    func unreadBadge(accountId: String) throws -> Int {
        let s = badge!
        do {
            try s.bind(1, accountId)
            guard try s.step() else {
                throw SQLiteBaselineError(call: "sqlite3_step(unreadBadge)", code: SQLITE_DONE, message: "no row")
            }
            let n = Int(s.int64(0))
            try s.finish()
            return n
        } catch {
            s.reset()
            throw error
        }
    }

    /// The query plan of the page query of one shape, for the report (`EXPLAIN QUERY PLAN`).
    func pagePlan(category: Bool, after: Bool) throws -> [String] {
        try plan(Self.pageSQL(columns: "t.id", category: category, after: after))
    }

    /// The query plan of the badge query.
    func badgePlan() throws -> [String] { try plan(Self.badgeSQL) }

    // MARK: - SQL

    /// Threads of the account, walked newest first along Thread_accountId_latestDate (or the category index),
    /// each kept if one of its emails is in the folder (Email_threadId, then the EmailFolder primary key).
    /// Parameters: ?1 account, ?2 folder, ?3 limit, ?4 category, ?5 ?6 the cursor (latestDate, id).
    private static func pageSQL(columns: String, category: Bool, after: Bool) -> String {
        """
        SELECT \(columns)
        FROM Thread AS t
        WHERE t.accountId = ?1\(category ? "\n  AND t.aiCategory = ?4" : "")\
        \(after ? "\n  AND (t.latestDate, t.id) < (?5, ?6)" : "")
          AND EXISTS (SELECT 1 FROM Email AS e JOIN EmailFolder AS ef ON ef.emailId = e.id
                      WHERE e.threadId = t.id AND ef.folderId = ?2)
        ORDER BY t.latestDate DESC, t.id DESC
        LIMIT ?3
        """
    }

    /// The account's unread emails (Email_accountId_isRead, covering), each kept if it is in an inbox-role
    /// folder (EmailFolder primary key, then Folder). Parameter: ?1 account.
    private static let badgeSQL = """
        SELECT COUNT(*)
        FROM Email AS e
        WHERE e.accountId = ?1 AND e.isRead = 0
          AND EXISTS (SELECT 1 FROM EmailFolder AS ef JOIN Folder AS f ON f.id = ef.folderId
                      WHERE ef.emailId = e.id AND f.accountId = ?1 AND f.role = 'inbox')
        """

    private static func shapeIndex(category: String?, after: (Int64, String)?) -> Int {
        (category == nil ? 0 : 1) + (after == nil ? 0 : 2)
    }

    private func prepareQueries() throws {
        pageIds.removeAll()
        pageFull.removeAll()
        badge = nil
        for shape in 0..<4 {
            let category = shape & 1 != 0, after = shape & 2 != 0
            pageIds.append(try SQLiteBaselineStatement(db, "page", Self.pageSQL(columns: "t.id", category: category, after: after),
                                         persistent: true))
            pageFull.append(try SQLiteBaselineStatement(db, "pageRows",
                                          Self.pageSQL(columns: Self.threadColumns, category: category, after: after),
                                          persistent: true))
        }
        badge = try SQLiteBaselineStatement(db, "unreadBadge", Self.badgeSQL, persistent: true)
    }

    private func bindPage(_ s: SQLiteBaselineStatement, accountId: String, folderId: String, category: String?,
                          after: (Int64, String)?, limit: Int) throws {
        try s.bind(1, accountId)
        try s.bind(2, folderId)
        try s.bind(3, Int64(limit))
        if let category { try s.bind(4, category) }
        if let after {
            try s.bind(5, after.0)
            try s.bind(6, after.1)
        }
    }

    // MARK: - Helpers

    private func check(_ rc: Int32, _ call: @autoclosure () -> String) throws {
        guard rc == SQLITE_OK else {
            throw SQLiteBaselineError(call: call(), code: rc, message: String(cString: sqlite3_errmsg(db)))
        }
    }

    private func exec(_ sql: String) throws {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &errmsg)
        guard rc == SQLITE_OK else {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errmsg)
            let head = sql.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? sql
            throw SQLiteBaselineError(call: "sqlite3_exec(\(head))", code: rc, message: message)
        }
    }

    private func scalarText(_ sql: String) throws -> String {
        let s = try SQLiteBaselineStatement(db, sql, sql)
        guard try s.step() else {
            throw SQLiteBaselineError(call: "sqlite3_step(\(sql))", code: SQLITE_DONE, message: "no row")
        }
        let value = s.text(0)
        try s.finish()
        return value
    }

    private func plan(_ sql: String) throws -> [String] {
        let s = try SQLiteBaselineStatement(db, "explain", "EXPLAIN QUERY PLAN " + sql)
        var lines: [String] = []
        while try s.step() { lines.append(s.text(3)) }
        return lines
    }
}

/// One prepared statement of `SQLiteBaseline`; finalized on deinit. Every sqlite3 return code is checked, except
/// where nothing can be reported: sqlite3_finalize (it repeats the last step's result) and the resets after
/// a failure already thrown.
private final class SQLiteBaselineStatement {
    let handle: OpaquePointer
    let db: OpaquePointer?
    let name: String

    init(_ db: OpaquePointer?, _ name: String, _ sql: String, persistent: Bool = false) throws {
        self.db = db
        self.name = name
        var stmt: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(db, sql, -1, flags, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw SQLiteBaselineError(call: "sqlite3_prepare_v3(\(name))", code: rc,
                                      message: String(cString: sqlite3_errmsg(db)))
        }
        handle = stmt
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ i: Int32, _ value: String) throws {
        try check(sqlite3_bind_text(handle, i, value, -1, mailstore_sqlite_transient()), "sqlite3_bind_text", i)
    }

    func bind(_ i: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, i, value), "sqlite3_bind_int64", i)
    }

    func bind(_ i: Int32, _ value: Bool) throws {
        try check(sqlite3_bind_int(handle, i, value ? 1 : 0), "sqlite3_bind_int", i)
    }

    /// Steps once: true with a row, false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw SQLiteBaselineError(call: "sqlite3_step(\(name))", code: rc, message: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Steps a statement that returns no rows (an INSERT), then resets it for the next use.
    func run() throws {
        let rc = sqlite3_step(handle)
        guard rc == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db))
            sqlite3_reset(handle)
            throw SQLiteBaselineError(call: "sqlite3_step(\(name))", code: rc, message: message)
        }
        try finish()
    }

    /// Resets and clears the bindings after a successful use, checking both return codes.
    func finish() throws {
        try check(sqlite3_reset(handle), "sqlite3_reset", nil)
        try check(sqlite3_clear_bindings(handle), "sqlite3_clear_bindings", nil)
    }

    /// Reset after a failure; its return code repeats the failure already thrown.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    private func check(_ rc: Int32, _ call: String, _ i: Int32?) throws {
        guard rc == SQLITE_OK else {
            let what = i.map { "\(call)(\(name), ?\($0))" } ?? "\(call)(\(name))"
            throw SQLiteBaselineError(call: what, code: rc, message: String(cString: sqlite3_errmsg(db)))
        }
    }
}
