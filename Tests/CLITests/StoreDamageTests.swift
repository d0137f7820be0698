import CorpusGenerator
import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

/// A damaged store is reported, never crashed on: a log file cut short fails every command with a clear
/// error (verify reports it as a finding), and the store is left as it was.
final class StoreDamageTests: CLITestCase {
    private func storeWithSomeEvents() throws -> String {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        for b in 0..<20 {
            try log.append((0..<50).map { i in
                NewEvent(event: .folderRemoved(FolderRemoved(folder: "folder-\(b)-\(i)-" + String(repeating: "x", count: 200))),
                         account: "a", stream: StreamName(rawValue: "s\(b)"), actor: .system)
            })
        }
        return store + "/log/data.mdb"
    }

    func testATruncatedLogIsReportedNotCrashedOn() throws {
        let file = try storeWithSomeEvents()
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertEqual(truncate(file, off_t(size / 2)), 0)
        let verify = try mailstore("verify", expect: 1)
        XCTAssertTrue(verify.stdout.contains("BAD ") && verify.stdout.contains("is truncated"), verify.stdout)
        XCTAssertTrue(verify.stderr.contains("restore the store's log folder from a backup"), verify.stderr)
        let json = try mailstore("verify", "--json", expect: 1)
        XCTAssertTrue(json.stdout.contains("\"clean\":false"), json.stdout)
        for command in [["log"], ["stats"], ["import", "--mbox", "/dev/null"]] {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), command,
                                         environment: ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": store]) { _, b in b })
            XCTAssertEqual(r.status, 3, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("is truncated") && r.stderr.contains("restore this folder from a backup"), r.stderr)
        }
        // Nothing was written to the damaged file.
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, size / 2)
    }

    /// Writes a size of ~4 GiB into every 8-byte-keyed value of the log file's leaf pages (the records' and the
    /// numbered blobs'): LMDB hands such a value on unchecked, and reading it runs past the file (what a damaged page
    /// does; a random one made `verify` crash in 11 of 20 tries on the audit's store).
    private func damageEveryRecordsSize(_ file: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        let page = 4_096
        var damaged = 0
        data.withUnsafeMutableBytes { (b: UnsafeMutableRawBufferPointer) in
            func u16(_ o: Int) -> Int { Int(b.loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
            for p in 2..<(b.count / page) {
                let base = p * page
                // A leaf page (P_LEAF) that says it is this page: its node offsets from 16 to `lower`.
                guard b.loadUnaligned(fromByteOffset: base, as: UInt64.self) == UInt64(p), u16(base + 10) == 0x02 else { continue }
                let lower = u16(base + 12)
                guard lower >= 16, lower <= page else { continue }
                for i in stride(from: 16, to: lower, by: 2) {
                    let node = base + u16(base + i)
                    // mn_lo, mn_hi (the value's size), mn_flags (0: the value is in the page), mn_ksize.
                    guard node + 8 <= base + page, u16(node + 4) == 0, u16(node + 6) == 8 else { continue }
                    b.storeBytes(of: UInt16(0xFFF0), toByteOffset: node, as: UInt16.self)
                    b.storeBytes(of: UInt16(0xFFFF), toByteOffset: node + 2, as: UInt16.self)
                    damaged += 1
                }
            }
        }
        XCTAssertGreaterThan(damaged, 100)
        try data.write(to: URL(fileURLWithPath: file))
    }

    /// A page LMDB does not check crashes the process that reads it: `verify` reads the store in a child process and
    /// reports that crash as what it found (exit 1, `BAD`); any other command crashes with a line saying what to run.
    func testAPageThatCrashesLMDBIsAFindingOfVerify() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["MAILSTORE_TEST_SANITIZER"] != nil,
                      "a sanitizer reports the crash this test makes on purpose")
        let file = try storeWithSomeEvents()
        try mailstore("verify")
        try damageEveryRecordsSize(file)
        let verify = try mailstore("verify", expect: 1)
        XCTAssertTrue(verify.stdout.contains("BAD reading the store crashed LMDB (SIG"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("restore the store's log folder from a backup"), verify.stdout)
        XCTAssertFalse(verify.stderr.contains("Backtracing"), "the child's crash is verify's finding, not a backtrace: \(verify.stderr)")
        let json = try mailstore("verify", "--json", expect: 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(object["clean"] as? Bool, false)
        XCTAssertTrue((object["problems"] as? [String])?.first?.contains("crashed LMDB") == true, json.stdout)
        // `log` checks each record's lengths before it reads them: this damage is a clean error there.
        let log = try mailstore("log", expect: 3)
        XCTAssertTrue(log.stderr.contains("event 1 is corrupt"), log.stderr)
    }

    /// A command that dies of a bad memory access says first what a damaged store file does and what to run.
    func testACrashSaysWhatToRunBeforeItsBacktrace() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["MAILSTORE_TEST_SANITIZER"] != nil,
                      "a sanitizer reports the crash this test makes on purpose")
        try mailstore("init")
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["SWIFT_BACKTRACE"] = "enable=no"
        let r = try ChildProcess.run("/bin/sh", ["-c", #""$0" log --follow & p=$!; sleep 1; kill -SEGV $p; wait $p; echo "status $?""#,
                                                 BuiltProducts.executable("mailstore")], environment: env)
        XCTAssertTrue(r.stdout.contains("status 139"), "it still dies of the signal: \(r.stdout)")
        XCTAssertTrue(r.stderr.contains("mailstore: error: crashed on a bad memory access") && r.stderr.contains("`mailstore verify`"), r.stderr)
    }

    func testAnEmptyLogFileIsNotTakenForANewLog() throws {
        let file = try storeWithSomeEvents()
        XCTAssertEqual(truncate(file, 0), 0)
        let verify = try mailstore("verify", expect: 1)
        XCTAssertTrue(verify.stdout.contains("too short for a database header"), verify.stdout)
        try mailstore("log", expect: 3)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, 0)
    }

    /// The store's small files are hostile too: a FIFO or a huge file put in place of `FORMAT` is refused at once
    /// (never waited on, never read whole); a FIFO in place of the views' `CURRENT` is taken as no views, which
    /// are rebuilt, and CURRENT written again.
    func testAFIFOOrAHugeFileInPlaceOfTheStoresSmallFilesIsRefusedNotWaitedOn() throws {
        _ = try storeWithSomeEvents()
        try mailstore("project", "--view", "folders", "--unified")
        let format = store + "/FORMAT"
        let kept = try Data(contentsOf: URL(fileURLWithPath: format))
        try FileManager.default.removeItem(atPath: format)
        XCTAssertEqual(mkfifo(format, 0o600), 0)
        let fifo = try mailstore("stats", expect: 2)
        XCTAssertTrue(fifo.stderr.contains("a regular file of at most 4 KiB"), fifo.stderr)
        try FileManager.default.removeItem(atPath: format)
        try Data(repeating: 0x20, count: 1 << 20).write(to: URL(fileURLWithPath: format))
        try mailstore("stats", expect: 2)
        try FileManager.default.removeItem(atPath: format)
        try kept.write(to: URL(fileURLWithPath: format))
        let current = store + "/views/CURRENT"
        try FileManager.default.removeItem(atPath: current)
        XCTAssertEqual(mkfifo(current, 0o600), 0)
        try mailstore("project", "--view", "folders", "--unified")
        var st = stat()
        XCTAssertEqual(stat(current, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "CURRENT written again as a file")
        try mailstore("verify", "--views")
    }

    /// `replay --view threads`, the documented mend for a damaged view, mends a views file with bad pages: where the
    /// copy of the views kept (or the ordered writes of their tables) meets a bad page, every view is built from the
    /// log instead. It had ended "MDB_KEYEXIST ... see the LMDB message" or "the database file is corrupt: restore it
    /// from a backup", which operations.md says is never needed for views. Bytes changed inside another view's keys or
    /// values break no page and are carried over by the copy (LMDB keeps no checksums): `verify --views` finds them and
    /// `replay` mends them (a fresh-clone CI met one such seed once the contacts' `messages` table moved the layout).
    func testReplayOfOneViewMendsADamagedViewsFile() throws {
        try mailstore("init")
        var mbox = ""
        for i in 0..<300 {
            mbox += "From s@example.com Mon Jan  1 00:00:00 2024\nFrom: Sender \(i % 37) <s\(i % 37)@example.com>\nSubject: note \(i)\n"
                + "Message-ID: <n\(i)@example.com>\n" + (i % 3 == 0 ? "" : "In-Reply-To: <n\(i - 1)@example.com>\n")
                + "\n" + String(repeating: "word\(i) ", count: 300) + "\n\n"
        }
        let source = dir.file("in.mbox")
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: source))
        try mailstore("import", "--mbox", source, "--folder", "INBOX", "--quiet")
        try mailstore("project", "--view", "threads", "--limit", "1")
        var fellBack = 0
        var carriedOver = 0
        let pristine = dir.file("pristine")
        try FileManager.default.copyItem(atPath: store + "/views", toPath: pristine)
        for seed in UInt64(1)...12 {
            try FileManager.default.removeItem(atPath: store + "/views")
            try FileManager.default.copyItem(atPath: pristine, toPath: store + "/views")
            let gen = try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let file = store + "/views/" + gen + "/data.mdb"
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            var rng = SplitMix64(seed: seed)
            for _ in 0..<5 {
                let at = Int(rng.next() % UInt64(bytes.count / 4096)) * 4096 + Int(rng.next() % (4096 - 64))
                for k in 0..<64 { bytes[at + k] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["replay", "--view", "threads"],
                                         environment: ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": store]) { _, b in b })
            // LMDB trusts its pages: a bad one can also crash the copy (SIGSEGV, SIGBUS, or LMDB's own assertion).
            // Then the crash says what mends it, `mailstore replay`, which builds every view without reading the file.
            if [134, 135, 139].contains(r.status) {
                XCTAssertTrue(r.stderr.contains("`mailstore replay` rebuilds the views") || r.stderr.contains("Assertion"),
                              "seed \(seed): \(r.stderr.prefix(400))")
                try mailstore("replay")
            } else {
                XCTAssertEqual(r.status, 0, "seed \(seed): \(r.stderr)")
                if r.stderr.contains("the views file is damaged") { fellBack += 1 }
            }
            // Bytes changed inside another view's keys or values break no page: LMDB keeps no checksums, so the copy
            // carries them over. `verify --views` finds them, and `replay` (every view built from the log) mends them.
            let verified = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["verify", "--views", "--quiet"],
                                                environment: ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": store]) { _, b in b })
            if verified.status != 0 {
                XCTAssertEqual(verified.status, 1, "seed \(seed): \(verified.stderr)")
                XCTAssertTrue(verified.stderr.contains("`mailstore replay` rebuilds them"), "seed \(seed): \(verified.stderr)")
                try mailstore("replay")
                carriedOver += 1
            }
            try mailstore("verify", "--views", "--quiet")
        }
        XCTAssertGreaterThan(fellBack, 0, "some damage went through the fallback to a build of every view")
        XCTAssertLessThan(carriedOver, 12, "most damage is found by the copy or lands in the view rebuilt")
    }

    /// A folder where the search index goes is moved aside and the index built anew: every search, `replay` and
    /// `verify --views` had rebuilt the whole index and then failed renaming it over the folder, for good.
    func testAFolderInPlaceOfTheSearchIndexIsMovedAside() throws {
        try mailstore("init")
        let source = dir.file("one.mbox")
        try Data(("From s@example.com Mon Jan  1 00:00:00 2024\nFrom: s@example.com\nSubject: lonely word\n"
                  + "Message-ID: <one@example.com>\n\nzebra\n\n").utf8).write(to: URL(fileURLWithPath: source))
        try mailstore("import", "--mbox", source, "--folder", "INBOX", "--quiet")
        let index = store + "/views/search/index.sqlite"
        try mailstore("search", "zebra")
        try FileManager.default.removeItem(atPath: index)
        try FileManager.default.createDirectory(atPath: index, withIntermediateDirectories: false)
        let r = try mailstore("search", "zebra")
        XCTAssertTrue(r.stdout.contains("lonely word"), r.stdout)
        XCTAssertTrue(r.stderr.contains("was not a file: moved aside"), r.stderr)
        try FileManager.default.removeItem(atPath: index)
        try FileManager.default.createDirectory(atPath: index, withIntermediateDirectories: false)
        try mailstore("replay", "--view", "search")
        XCTAssertTrue(try mailstore("search", "zebra").stdout.contains("lonely word"))
        try mailstore("verify", "--views", "--quiet")
    }

    /// A views file cut to nothing, or a CURRENT naming no generation, is rebuilt with a note (they had been rebuilt
    /// without a word, though operations.md promises one).
    func testAnEmptyViewsFileOrAGarbledCurrentIsRebuiltWithANote() throws {
        try mailstore("init")
        let source = dir.file("two.mbox")
        try Data(DiskFullTests.mbox(count: 2).utf8).write(to: URL(fileURLWithPath: source))
        try mailstore("import", "--mbox", source, "--folder", "INBOX", "--quiet")
        try mailstore("project", "--view", "threads")
        let gen = try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(truncate(store + "/views/" + gen + "/data.mdb", 0), 0)
        let empty = try mailstore("project", "--view", "threads", "--json")
        XCTAssertTrue(empty.stderr.contains("is empty (cut short); rebuilding"), empty.stderr)
        XCTAssertTrue(empty.stdout.contains("filler 1"), empty.stdout)
        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: store + "/views/CURRENT"))
        let garbled = try mailstore("project", "--view", "threads", "--json")
        XCTAssertTrue(garbled.stderr.contains("does not name a generation"), garbled.stderr)
        XCTAssertTrue(garbled.stdout.contains("filler 1"), garbled.stdout)
        try mailstore("verify", "--views", "--quiet")
    }

    /// The bytes of every file of the views (the generations' data files and `CURRENT`; not the lock files, which a
    /// read touches), by path: to see that a command left them alone.
    private func viewsFiles() throws -> [String: Data] {
        var out: [String: Data] = [:]
        let root = store + "/views"
        for case let name as String in FileManager.default.enumerator(atPath: root)! where name == "CURRENT" || name.hasSuffix("data.mdb") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + name))
        }
        return out
    }

    /// A store whose log file is missing, is another LMDB file (a views file copied in its place), or is a log
    /// without the StoreInitialized event `init` records first, is refused by every command (exit 2, the file named,
    /// restore the log from a backup), and nothing is written: no new log, the views left as they are. A missing
    /// `data.mdb` had been created anew (`verify --views` "OK ... through sequence 0", the views rebuilt empty; `import`
    /// wrote a new log and said it succeeded), and a views file had a new log started inside it by `import`.
    func testAMissingOrForeignLogIsRefusedNotStartedOver() throws {
        let source = try storeWithSomeEvents()
        let mbox = dir.file("one.mbox")
        try Data(("From s@example.com Mon Jan  1 00:00:00 2024\nFrom: s@example.com\nSubject: one\n"
                  + "Message-ID: <one@example.com>\n\nbody\n\n").utf8).write(to: URL(fileURLWithPath: mbox))
        try mailstore("import", "--mbox", mbox, "--folder", "INBOX", "--quiet")
        try mailstore("project", "--view", "threads", "--limit", "1")
        let kept = try Data(contentsOf: URL(fileURLWithPath: source))
        let gen = try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let viewsFile = try Data(contentsOf: URL(fileURLWithPath: store + "/views/" + gen + "/data.mdb"))
        // An LMDB file with the log's databases and no event: what an init killed before its first commit leaves.
        let emptyLog = dir.file("empty-log")
        try FileManager.default.createDirectory(atPath: emptyLog, withIntermediateDirectories: true)
        do { _ = try EventLog(path: emptyLog) }
        let empty = try Data(contentsOf: URL(fileURLWithPath: emptyLog + "/data.mdb"))
        let commands: [[String]] = [["verify"], ["verify", "--views", "--quiet"], ["replay", "--quiet"],
                                    ["import", "--mbox", mbox, "--folder", "INBOX", "--quiet"], ["project", "--view", "threads"],
                                    ["categorize", "--rerun"], ["log"]]
        for (what, contents, says) in [("missing", nil, "is missing"), ("a views file", viewsFile, "has no `events` database"),
                                       ("an empty log", empty, "holds no events")] as [(String, Data?, String)] {
            try? FileManager.default.removeItem(atPath: source)
            if let contents { try contents.write(to: URL(fileURLWithPath: source)) }
            let views = try viewsFiles()
            for command in commands {
                let r = try mailstore(command, expect: 2)
                XCTAssertTrue(r.stderr.contains(source) && r.stderr.contains(says) && r.stderr.contains("restore the log from a backup"),
                              "\(what), \(command): \(r.stderr)")
                XCTAssertEqual(try? Data(contentsOf: URL(fileURLWithPath: source)), contents, "\(what), \(command): the log file as it was")
                XCTAssertEqual(try viewsFiles(), views, "\(what), \(command): the views left as they were")
            }
        }
        try? FileManager.default.removeItem(atPath: source)
        try kept.write(to: URL(fileURLWithPath: source))
        try mailstore("verify")
        try mailstore("verify", "--views", "--quiet")
    }

    /// A folder in place of the views' `CURRENT` is moved aside and CURRENT written again, by any command that uses the
    /// views and by `replay`, the documented mend (every one had failed "cannot write: Is a directory"); a file in place
    /// of the views' folder is refused with what it is and what to do (it had said another process was rebuilding the
    /// views, then failed with NSCocoaErrorDomain 512).
    func testAFolderInPlaceOfCurrentIsMovedAsideAndAFileInPlaceOfTheViewsIsNamed() throws {
        _ = try storeWithSomeEvents()
        try mailstore("project", "--view", "folders", "--unified")
        let current = store + "/views/CURRENT"
        for command in [["project", "--view", "folders", "--unified"], ["replay", "--quiet"]] {
            try FileManager.default.removeItem(atPath: current)
            try FileManager.default.createDirectory(atPath: current, withIntermediateDirectories: false)
            let r = try mailstore(command)
            XCTAssertTrue(r.stderr.contains("views/CURRENT was a folder: moved aside"), "\(command): \(r.stderr)")
            var st = stat()
            XCTAssertEqual(stat(current, &st), 0)
            XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "\(command): CURRENT written again as a file")
            try FileManager.default.removeItem(atPath: current + ".aside-1")
        }
        try mailstore("verify", "--views", "--quiet")
        let views = store + "/views"
        try FileManager.default.moveItem(atPath: views, toPath: store + "/views.kept")
        try Data("not views\n".utf8).write(to: URL(fileURLWithPath: views))
        for command in [["project", "--view", "folders"], ["search", "folder"], ["replay", "--quiet"]] {
            let r = try mailstore(command, expect: 2)
            XCTAssertTrue(r.stderr.contains(views + ": is not a folder") && r.stderr.contains("move it away")
                          && !r.stderr.contains("another mailstore process") && !r.stderr.contains("NSCocoaErrorDomain"), "\(command): \(r.stderr)")
        }
        XCTAssertEqual(try String(contentsOfFile: views, encoding: .utf8), "not views\n")
    }

    /// A page of the log damaged anywhere (a database's root, meta, the blob index, records) is a finding of `verify`:
    /// `BAD` and exit 1 (or a clean pass where the page was free or a spare copy), the JSON report printed; never
    /// exit 3 with an LMDB error and no report (the audit wrote 16 bytes over pages 3 to 21: `mdb_dbi_open(events)`,
    /// `mdb_get(meta)` and the blob index's `MDB_CORRUPTED` ended verify with "failed" and no JSON).
    func testADamagedPageAnywhereInTheLogIsAFindingOfVerifyWithItsReport() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["MAILSTORE_TEST_SANITIZER"] != nil,
                      "a sanitizer reports the crashes some damaged pages make on purpose")
        let file = try storeWithSomeEvents()
        // Blobs too, so the blob data and its index have pages of their own.
        let mbox = dir.file("some.mbox")
        let messages = (0..<40).map { i in
            "From a@example.org Mon Jan  1 00:00:00 2024\nFrom: a\(i)@example.org\nTo: b@example.org\nSubject: s \(i)\n"
                + "Message-ID: <m\(i)@example.org>\nDate: Mon, 1 Jan 2024 00:00:\(String(format: "%02d", i % 60)) +0000\n\n"
                + String(repeating: "body \(i) ", count: 40 + i * 20) + "\n"
        }
        try messages.joined(separator: "\n").write(toFile: mbox, atomically: true, encoding: .utf8)
        try mailstore("import", "--mbox", mbox, "--account", "a", "--quiet")
        try mailstore("verify")
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let pages = min(original.count / 4_096, 64)
        XCTAssertGreaterThan(pages, 20)
        var findings = 0
        for page in 0..<pages {
            var damaged = original
            damaged.replaceSubrange(page * 4_096..<(page * 4_096 + 16), with: Array("status: notified".utf8))
            try damaged.write(to: URL(fileURLWithPath: file))
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["verify", "--json", "--quiet"],
                                         environment: ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": store]) { _, b in b })
            // A meta page LMDB no longer takes for its own makes the file "not a mailstore log" (exit 2), as for
            // every command, with what to restore.
            if r.status == 2, page < 2, r.stderr.contains("is not a mailstore log"), r.stderr.contains("restore the log from a backup") {
                continue
            }
            XCTAssertTrue(r.status == 0 || r.status == 1, "page \(page): exit \(r.status): \(r.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            XCTAssertNotNil(object, "page \(page): no JSON report: \(r.stdout) \(r.stderr)")
            if r.status == 1 {
                findings += 1
                XCTAssertEqual(object?["clean"] as? Bool, false, "page \(page): \(r.stdout)")
                XCTAssertFalse((object?["problems"] as? [String] ?? []).isEmpty, "page \(page): \(r.stdout)")
            }
        }
        XCTAssertGreaterThan(findings, pages / 2, "most pages of a small log are in use")
        try original.write(to: URL(fileURLWithPath: file))
        try mailstore("verify")
    }
}
