import CorpusGenerator
import Foundation
import TestSupport
import XCTest

/// `search --timeout` bounds the search index's catch-up with the log and its build, not only the query: a catch-up
/// stopped at the limit keeps what it folded, the search answers from what is indexed and says how far behind it is
/// (stderr, `indexBehind` in each JSON row); a build stopped there is kept aside (`index.sqlite.partial`) and gone on
/// with by the next search or `search --build-index`, the search exiting 8 with that advice. The catch-up is made slow
/// with the test-only `MAILSTORE_TEST_SEARCH_FOLD_DELAY_MS` (80 ms an event: 60 messages take 5 s or more to fold).
final class SearchCatchUpLimitTests: CLITestCase {
    struct Row: Decodable {
        var emailIds: [String]
        var indexBehind: UInt64?
    }

    /// Milliseconds each event folded waits in the slow runs.
    static let delayMilliseconds = "80"
    /// The limit of the slow searches, and the most their whole process may take beyond it (its start, the store's
    /// open, one event's wait past the deadline, a loaded machine).
    static let limit = 1.0
    static let slack = 3.0

    /// Runs `mailstore` with each event of the search index's catch-up slowed down; its result and wall time.
    func slowMailstore(_ args: [String], expect status: Int32, line: UInt = #line) throws -> (ChildProcess.Result, Double) {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["MAILSTORE_TEST_SEARCH_FOLD_DELAY_MS"] = Self.delayMilliseconds
        let started = Date()
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stderr)", line: line)
        return (r, seconds)
    }

    func rows(_ r: ChildProcess.Result) throws -> [Row] {
        try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
    }

    func importSixty() throws {
        _ = try generateCorpus(CorpusOptions(messages: 60, outputDirectory: dir.file("md"), seed: 11))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
    }

    func headSequence() throws -> Int {
        let stats = try JSONSerialization.jsonObject(with: Data(try mailstore("stats", "--json").stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(stats?["events"] as? Int)
    }

    /// A live index behind a big import: the search ends within its limit, answers from what is indexed with each row
    /// saying how far behind it is and a warning naming `--build-index`; the next search goes on from there; a search
    /// as of a point the index has not reached exits 8, one as of a point it has answers; a search with time enough
    /// catches up and finds everything.
    func testACatchUpStoppedAtTheLimitAnswersFromWhatIsIndexedAndSaysSo() throws {
        try mailstore("init")
        XCTAssertEqual(try rows(try mailstore("search", "*", "--json")).count, 0, "the live index made, empty")
        try importSixty()
        let head = try headSequence()
        let args = ["search", "*", "--output", "messages", "--limit", "1000", "--timeout", String(Self.limit), "--json"]
        let (first, seconds) = try slowMailstore(args, expect: 0)
        XCTAssertLessThan(seconds, Self.limit + Self.slack, "the limit holds the catch-up")
        let partial = try rows(first)
        XCTAssertLessThan(partial.count, 60)
        XCTAssertTrue(partial.allSatisfy { ($0.indexBehind ?? 0) > 0 && $0.indexBehind == partial.first?.indexBehind },
                      "every row says how far behind: \(first.stdout)")
        XCTAssertTrue(first.stderr.contains("events behind the log") && first.stderr.contains("mailstore search --build-index")
            && first.stderr.contains("not searched"), first.stderr)
        // The next search goes on from where it stopped: more is indexed.
        let (second, seconds2) = try slowMailstore(args, expect: 0)
        XCTAssertLessThan(seconds2, Self.limit + Self.slack)
        XCTAssertGreaterThanOrEqual(try rows(second).count, partial.count)
        XCTAssertTrue(second.stderr.contains("events behind the log"), second.stderr)
        // As of the log's head (not reached yet): exit 8 and the advice; as of the start: answered (nothing then).
        let (asOfHead, seconds3) = try slowMailstore(["search", "*", "--as-of", String(head), "--timeout", String(Self.limit)], expect: 8)
        XCTAssertLessThan(seconds3, Self.limit + Self.slack)
        XCTAssertTrue(asOfHead.stderr.contains("short of the point searched") && asOfHead.stderr.contains("--build-index"), asOfHead.stderr)
        let (asOfStart, _) = try slowMailstore(["search", "*", "--as-of", "1", "--timeout", String(Self.limit), "--json"], expect: 0)
        XCTAssertEqual(try rows(asOfStart).count, 0)
        // With time enough, the search catches up and finds everything; nothing is said.
        let full = try mailstore(Array(args.dropLast(3)) + ["--json"])
        let all = try rows(full)
        XCTAssertEqual(all.count, 60)
        XCTAssertTrue(all.allSatisfy { $0.indexBehind == nil }, full.stdout)
        XCTAssertFalse(full.stdout.contains("indexBehind"))
        XCTAssertFalse(full.stderr.contains("behind"), full.stderr)
        XCTAssertEqual(try rows(try mailstore(["search", "*", "--as-of", String(head), "--limit", "1000", "--output", "messages", "--json"])).count, 60)
    }

    /// No index yet (a new store after a big import): the search's build stops at the limit and exits 8 saying so and
    /// naming `--build-index`, its work kept aside; the next search goes on with that same build (the file kept aside is
    /// the one written further); `search --build-index` finishes it with no limit, and every message is found.
    func testABuildStoppedAtTheLimitIsKeptAndGoneOnWith() throws {
        try mailstore("init")
        try importSixty()
        let head = try headSequence()
        let folder = store + "/views/search"
        let partial = folder + "/index.sqlite.partial", kept = dir.file("kept-link")
        let args = ["search", "*", "--timeout", String(Self.limit), "--json"]
        let (first, seconds) = try slowMailstore(args, expect: 8)
        XCTAssertLessThan(seconds, Self.limit + Self.slack, "the limit holds the build")
        XCTAssertEqual(first.stdout, "")
        XCTAssertTrue(first.stderr.contains("the search index is being built") && first.stderr.contains("mailstore search --build-index")
            && first.stderr.contains("events folded"), first.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial), "the build kept aside")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/index.sqlite"))
        // A second name for the file kept aside: the build gone on with is this very file (its inode), not a new one.
        XCTAssertEqual(link(partial, kept), 0)
        var keptStat = stat(), st = stat()
        XCTAssertEqual(stat(kept, &keptStat), 0)
        let (second, _) = try slowMailstore(args, expect: 8)
        XCTAssertTrue(second.stderr.contains("being built"), second.stderr)
        XCTAssertEqual(stat(partial, &st), 0)
        XCTAssertEqual(st.st_ino, keptStat.st_ino, "the next search went on with the build kept aside")
        XCTAssertFalse(second.stderr.contains("not gone on with"), second.stderr)
        // As of a point: the same (nothing to search yet), bounded.
        let (asOf, seconds3) = try slowMailstore(["search", "*", "--as-of", String(head), "--timeout", String(Self.limit)], expect: 8)
        XCTAssertLessThan(seconds3, Self.limit + Self.slack)
        XCTAssertTrue(asOf.stderr.contains("being built"), asOf.stderr)
        // `--build-index` finishes that build, with no limit.
        let built = try mailstore("search", "--build-index")
        XCTAssertTrue(built.stdout.contains("search index: up to date through event \(head)"), built.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        XCTAssertEqual(stat(folder + "/index.sqlite", &st), 0)
        XCTAssertEqual(st.st_ino, keptStat.st_ino, "the build kept aside was finished and put in place")
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        let all = try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(all.count, 60)
        XCTAssertTrue(all.allSatisfy { $0.indexBehind == nil })
        // `replay --view search` starts a build afresh: one kept aside is removed (none here), and verify agrees.
        let verify = try mailstore("verify", "--views", "--quiet")
        XCTAssertTrue(verify.stdout.hasPrefix("OK"), verify.stdout)
        // `--build-index` alone is a command line of its own; a query after it is searched too.
        let both = try rows(try mailstore("search", "--build-index", "*", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(both.count, 60)
        let usage = try mailstore(["search"], expect: 64)
        XCTAssertTrue(usage.stderr.contains("--build-index"), usage.stderr)
    }

    /// A build whose end (merging the index's segments, making its query indexes) outlasts a search's limit, each of
    /// its steps slowed by the test-only `MAILSTORE_TEST_SEARCH_END_STEP_DELAY_MS` (400 ms against a catch-up share of
    /// 1 s): repeated short searches each fold and end what their time allows, keep the rest aside and say how far the
    /// build is; in the end one puts the index in place and answers, with no `search --build-index` run. Until the
    /// sixteenth round the end was begun only when the whole of it was expected to fit (~50 s at a million messages),
    /// so every such search exited 8 until `--build-index` ran.
    func testRepeatedShortSearchesFinishABuildWhoseEndOutlastsTheirLimit() throws {
        try mailstore("init")
        try importSixty()
        let head = try headSequence()
        let folder = store + "/views/search"
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["MAILSTORE_TEST_SEARCH_FOLD_DELAY_MS"] = "5"
        env["MAILSTORE_TEST_SEARCH_END_STEP_DELAY_MS"] = "400"
        let args = ["search", "*", "--output", "messages", "--limit", "1000", "--timeout", "2", "--json"]
        var stopped: [String] = []
        var answer: ChildProcess.Result?
        for _ in 0..<24 where answer == nil {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
            if r.status == 0 { answer = r; break }
            XCTAssertEqual(r.status, 8, r.stderr)
            XCTAssertTrue(r.stderr.contains("the search index is being built") && r.stderr.contains("the next search"), r.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/index.sqlite.partial"), "the build kept aside")
            stopped.append(r.stderr)
        }
        let found = try XCTUnwrap(answer, "no search finished the build: \(stopped.last ?? "")")
        XCTAssertEqual(try rows(found).count, 60)
        XCTAssertTrue(try rows(found).allSatisfy { $0.indexBehind == nil }, found.stdout)
        XCTAssertGreaterThanOrEqual(stopped.count, 2, "the end took more than one search: \(stopped)")
        // How far each stopped one was: events folded of the log's, then its end's stages done, going forward.
        XCTAssertTrue(stopped.contains { $0.contains("of the log's \(head) events folded") || $0.contains("all \(head) events") }, "\(stopped)")
        XCTAssertTrue(stopped.contains { $0.contains("stages of its end done") }, "\(stopped)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/index.sqlite.partial"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/index.sqlite"))
        // The index put in place is the one a rebuild makes.
        let verify = try mailstore("verify", "--views", "--quiet")
        XCTAssertTrue(verify.stdout.hasPrefix("OK"), verify.stdout)
    }

    /// Mounts the store read-only over itself (a backup on read-only media), or skips (fails under CI) when it cannot.
    func mountStoreReadOnly() throws -> ReadOnlyMount {
        guard let mount = ReadOnlyMount(store) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("cannot make a read-only bind mount") }
            throw XCTSkip("cannot make a read-only bind mount (needs root; CI=true makes this a failure)")
        }
        return mount
    }

    /// Another process building the index (its build lock held here, let go after 8 s): the search waits for it only
    /// until its limit, then exits 8 saying so, live or as of a point; once it is let go, a search builds the index.
    /// Until the thirteenth round the search waited for the whole build (8 s here).
    func testWaitingForAnotherProcesssBuildStopsAtTheLimit() throws {
        try mailstore("init")
        try importSixty()
        let head = try headSequence()
        let folder = store + "/views/search"
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let fd = open(folder + "/BUILD", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        try searchesStopAtTheLimit(while: fd, head: head, saying: "another mailstore process is building the search index", timed: true)
    }

    /// Searches (live and as of `head`) while `fd` holds a lock, which is let go (closed) 8 s from now: each exits 8 at
    /// its limit (within it and its slack when `timed`) saying `saying` and that it ran out waiting; once it is let go,
    /// a search answers.
    func searchesStopAtTheLimit(while fd: Int32, head: Int, saying: String, timed: Bool) throws {
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 8) {
            close(fd)
            released.signal()
        }
        defer { released.wait() }
        for args in [["search", "*", "--timeout", String(Self.limit), "--json"],
                     ["search", "*", "--as-of", String(head), "--timeout", String(Self.limit), "--json"]] {
            let (r, seconds) = try slowMailstore(args, expect: 8)
            if timed { XCTAssertLessThan(seconds, Self.limit + Self.slack, "the limit holds the wait: \(args)") }
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.contains(saying) && r.stderr.contains("ran out waiting for it"), r.stderr)
        }
        released.wait()
        released.signal()
        let all = try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(all.count, 60)
    }

    /// The store's index's switch lock file opened here with its `byte` locked (`type`: `F_WRLCK`, `F_RDLCK`; byte 0 is
    /// the gate a swap takes, byte 1 the lock a transaction holds shared); closing the descriptor lets it go.
    func holdSwitchLock(byte: Int, _ type: Int32, _ what: String) -> Int32 {
        let fd = open(store + "/views/search/SWITCH", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(byte)
        lock.l_len = 1
        XCTAssertEqual(fcntl(fd, F_SETLK, &lock), 0, what)
        return fd
    }

    /// A `replay` putting its rebuilt index in place (the switch lock's gate held here, as the swap holds it while it
    /// waits for the searches under way, let go after 8 s): a new search waits for it only until its limit, then exits 8
    /// saying so, live or as of a point; once it is let go, a search answers. Until the fourteenth round the search
    /// waited up to 30 s (its open tried 15 times, 2 s each) and a statement's busy timeout 30 s more, past `--timeout`.
    func testASwapOfARebuiltIndexHoldsANewSearchOnlyUntilItsLimit() throws {
        try mailstore("init")
        try importSixty()
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json")).count, 60)
        let head = try headSequence()
        let fd = holdSwitchLock(byte: 0, F_WRLCK, "the gate, byte 0, as a swap takes it")
        try searchesStopAtTheLimit(while: fd, head: head, saying: "another mailstore process is putting a rebuilt search index in place",
                                   timed: false)
    }

    /// A search that has to build the index anew (the one there is another log's: a store restored from a backup) while
    /// another process's search still reads the old one (its share of the switch lock, byte 1, held here as a reader's
    /// transaction holds it; let go after 35 s): its finished build waits to be put in place only until its limit, then
    /// exits 8 saying so, the build kept aside; `search --build-index` waits only up to its `--timeout` alike; once the
    /// reader is done, a search puts the build kept aside in place and answers. Until the fifteenth round the build
    /// waited for the readers up to 3,660 s, past `--timeout`.
    func testABuildWaitsForTheOldIndexsReadersOnlyUntilItsLimit() throws {
        // Another log's index: a store of five other messages, its index kept, the store made again.
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 5, outputDirectory: dir.file("md2"), seed: 12))
        try mailstore("import", "--maildir", dir.file("md2"), "--account", "demo", "--quiet")
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--json")).count, 5)
        let folder = store + "/views/search", old = dir.file("old-index.sqlite")
        try FileManager.default.moveItem(atPath: folder + "/index.sqlite", toPath: old)
        try FileManager.default.removeItem(atPath: store)
        try mailstore("init")
        try importSixty()
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try FileManager.default.copyItem(atPath: old, toPath: folder + "/index.sqlite")
        let fd = holdSwitchLock(byte: 1, F_RDLCK, "the switch byte, shared, as a search's transaction holds it")
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 35) {
            close(fd)
            released.signal()
        }
        defer { released.wait() }
        // A search's limit of 16 s: its build has 8 of them (the catch-up's share: 60 messages on a loaded machine), its
        // wait for the reader what is left, all of it before the reader lets go.
        for args in [["search", "*", "--timeout", "16", "--json"], ["search", "--build-index", "--timeout", "1"]] {
            let r = try mailstore(args, expect: 8)
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.contains("built the search index anew") && r.stderr.contains("kept the old one in use")
                && r.stderr.contains("ran out waiting for them"), r.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/index.sqlite.partial"), "the build kept aside: \(args)")
        }
        released.wait()
        released.signal()
        let all = try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(all.count, 60)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/index.sqlite.partial"), "the build kept aside put in place")
    }

    /// A store on a read-only filesystem with no index: the private index each search builds is built within the limit,
    /// live or as of a point; one not finished exits 8 saying it is not kept, and nothing is left of it; with time
    /// enough, the search answers. Until the thirteenth round the build took what it took (~10 s here) past the limit.
    func testAPrivateIndexOfAReadOnlyStoreIsBuiltWithinTheLimit() throws {
        try mailstore("init")
        try importSixty()
        let head = try headSequence()
        let mount = try mountStoreReadOnly()
        defer { withExtendedLifetime(mount) {} }
        let before = try ReadOnlyMount.listing(store)
        for args in [["search", "*", "--timeout", String(Self.limit), "--json"],
                     ["search", "*", "--as-of", String(head), "--timeout", String(Self.limit), "--json"]] {
            let (r, seconds) = try slowMailstore(args, expect: 8)
            XCTAssertLessThan(seconds, Self.limit + Self.slack, "the limit holds the private build: \(args)")
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.contains("builds a private index of its own") && r.stderr.contains("is not kept")
                && r.stderr.contains("events it needs folded"), r.stderr)
            XCTAssertFalse(r.stderr.contains("--build-index`"), "a private index is not kept: --build-index does not help: \(r.stderr)")
        }
        XCTAssertEqual(try ReadOnlyMount.listing(store), before, "nothing in the store written")
        let all = try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(all.count, 60)
    }

    /// `search --build-index QUERY` on a read-only filesystem with no index builds the private index once and searches
    /// it, live or as of a point (it built it for `--build-index`, removed it, and built it again for the query).
    func testBuildIndexWithAQueryBuildsAReadOnlyStoresPrivateIndexOnce() throws {
        try mailstore("init")
        try importSixty()
        let head = try headSequence()
        let mount = try mountStoreReadOnly()
        defer { withExtendedLifetime(mount) {} }
        for extra in [[], ["--as-of", String(head)]] {
            let r = try mailstore(["search", "--build-index", "*", "--output", "messages", "--limit", "1000", "--json"] + extra)
            XCTAssertEqual(try rows(r).count, 60, "\(extra)")
            XCTAssertEqual(r.stderr.components(separatedBy: "building a private index").count - 1, 1, "\(extra): \(r.stderr)")
        }
    }

    /// A store on a read-only filesystem whose index is behind a point searched: the scratch index `--as-of` folds up to
    /// the point is built within the limit, and one not finished exits 8 saying so; with time enough, the search answers.
    /// Until the thirteenth round it was folded with no bound (~10 s here).
    func testTheScratchIndexOfAnAsOfSearchIsBuiltWithinTheLimit() throws {
        try mailstore("init")
        try importSixty()
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json")).count, 60)
        _ = try generateCorpus(CorpusOptions(messages: 5, outputDirectory: dir.file("md2"), seed: 12))
        try mailstore("import", "--maildir", dir.file("md2"), "--account", "demo", "--quiet")
        let head = try headSequence()
        let mount = try mountStoreReadOnly()
        defer { withExtendedLifetime(mount) {} }
        let (r, seconds) = try slowMailstore(["search", "*", "--as-of", String(head), "--timeout", String(Self.limit), "--json"],
                                             expect: 8)
        XCTAssertLessThan(seconds, Self.limit + Self.slack, "the limit holds the scratch index")
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("builds a private index of its own") && r.stderr.contains("is not kept"), r.stderr)
        let all = try rows(try mailstore("search", "*", "--as-of", String(head), "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(all.count, 65)
    }

    struct Envelope: Decodable {
        var rows: [Row]
        var indexBehind: UInt64
    }

    /// `--json --envelope`: one object whose `indexBehind` tells a catch-up stopped at the limit also when no row
    /// matched (the bare array is `[]` then, and stays the default); 0 once the index is caught up; refused without
    /// `--json`. Until the thirteenth round only stderr said it when nothing matched.
    func testAnEnvelopeTellsTheIndexWasBehindWhenNothingMatched() throws {
        try mailstore("init")
        XCTAssertEqual(try mailstore("search", "*", "--json").stdout, "[]\n")
        try importSixty()
        let miss = ["search", "zqxjkvnomatch", "--timeout", String(Self.limit), "--json"]
        let (bare, _) = try slowMailstore(miss, expect: 0)
        XCTAssertEqual(bare.stdout, "[]\n", "the default shape as it was")
        XCTAssertTrue(bare.stderr.contains("events behind the log"), bare.stderr)
        let (wrapped, seconds) = try slowMailstore(miss + ["--envelope"], expect: 0)
        XCTAssertLessThan(seconds, Self.limit + Self.slack)
        let behind = try JSONDecoder().decode(Envelope.self, from: Data(wrapped.stdout.utf8))
        XCTAssertEqual(behind.rows.count, 0)
        XCTAssertGreaterThan(behind.indexBehind, 0, wrapped.stdout)
        XCTAssertTrue(wrapped.stdout.hasPrefix("{\"indexBehind\":"), wrapped.stdout)
        // Rows found while behind: the same rows as the array's, each still carrying it.
        let (some, _) = try slowMailstore(["search", "*", "--output", "messages", "--limit", "1000", "--timeout", String(Self.limit),
                                           "--json", "--envelope"], expect: 0)
        let partial = try JSONDecoder().decode(Envelope.self, from: Data(some.stdout.utf8))
        XCTAssertGreaterThan(partial.indexBehind, 0, some.stdout)
        XCTAssertTrue(partial.rows.allSatisfy { $0.indexBehind == partial.indexBehind }, some.stdout)
        // Caught up: 0, and the rows as the array has them.
        let full = try JSONDecoder().decode(Envelope.self, from: Data(try mailstore("search", "*", "--output", "messages", "--limit", "1000",
                                                                                     "--json", "--envelope").stdout.utf8))
        XCTAssertEqual(full.indexBehind, 0)
        XCTAssertEqual(full.rows.map(\.emailIds), try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json")).map(\.emailIds))
        XCTAssertEqual(full.rows.count, 60)
        let none = try JSONDecoder().decode(Envelope.self, from: Data(try mailstore("search", "zqxjkvnomatch", "--json", "--envelope").stdout.utf8))
        XCTAssertEqual(none.indexBehind, 0)
        XCTAssertEqual(none.rows.count, 0)
        let usage = try mailstore(["search", "*", "--envelope"], expect: 64)
        XCTAssertTrue(usage.stderr.contains("--envelope") && usage.stderr.contains("--json"), usage.stderr)
    }
}
