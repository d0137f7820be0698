import ArgumentParser
import EventModel
import Foundation
import MailStore

/// `mailstore verify`: checks the whole log.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Walk the whole log: hash chain, every record decodes, id and stream indexes agree, blobs match.",
        discussion: "Exits 1 and names the first bad sequence when anything is wrong.")

    @OptionGroup var storeOptions: StoreOptions

    @Flag(name: .long, help: "Skip checking every blob against its SHA-256.")
    var skipBlobs = false

    @Flag(name: .long, help: "No progress bar.")
    var quiet = false

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    @Flag(name: .long, help: "Instead: rebuild every view from the log in a scratch place and compare it with the live views.")
    var views = false

    func run() throws {
        // LMDB reads where a page says: a damaged one can crash the reading process, which verify must survive to
        // report it (docs/reliability.md, "A damaged page").
        if !CrashGuard.isChild {
            _ = CrashGuard.runAsChild { signal in
                let name = signal == SIGBUS ? "SIGBUS" : "SIGSEGV"
                let what = views ? "the log's or the views' file (`mailstore verify` checks the log alone: if it passes, `mailstore replay` rebuilds the views)"
                                 : "the log file (log/data.mdb): restore the store's log folder from a backup"
                let problem = "reading the store crashed LMDB (\(name)): a page of \(what)"
                if json {
                    let obj: [String: Any] = ["clean": false, "problems": [problem]]
                    if let data = try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys]) { print(JSONText.string(data)) }
                } else {
                    print("BAD \(problem)")
                    Terminal.error("verification failed: a store file is damaged where LMDB does not check it")
                }
                return CLIExit.problemsFound
            }
        }
        try CLIExit.run {
            if views { return try verifyViews() }
            let store: MailStore
            do { store = try MailStore.open(at: storeOptions.path, readOnly: true) } catch let e as DataFileError {
                // A cut-short log file is a finding of verify, not a failure to run it.
                try reportUnreadable("\(e)", advice: "the log file is truncated; restore the store's log folder from a backup")
            } catch where ErrorCategory.isFileDamage(error) {
                // So is a page LMDB finds damaged while opening the log (its databases' roots, meta).
                try reportUnreadable("the log cannot be opened, the file is damaged: \(error)",
                                     advice: "the log file (log/data.mdb) is damaged; restore the store's log folder from a backup")
            }
            let bar = ProgressBar("verifying", total: nil, quiet: quiet || json)
            let report: VerifyReport
            do { report = try store.verifyLog(checkBlobs: !skipBlobs) { done, total in bar.update(done) } } catch where ErrorCategory.isFileDamage(error) {
                bar.finish()
                try reportUnreadable("the log cannot be read, the file is damaged: \(error)",
                                     advice: "the log file (log/data.mdb) is damaged; restore the store's log folder from a backup")
            }
            bar.finish()
            if json {
                let obj: [String: Any] = [
                    "clean": report.isClean && report.newerRecords == 0, "events": report.eventsChecked,
                    "blobs": skipBlobs ? NSNull() : report.blobsChecked as Any,
                    "newerEvents": report.newerRecords,
                    "firstNewerEvent": report.firstNewerRecord.map { ["sequence": $0.sequence ?? 0, "what": $0.message] as Any } ?? NSNull(),
                    "dictionaries": skipBlobs ? NSNull() : report.dictionariesChecked as Any,
                    "head": report.headSequence, "firstBadSequence": report.firstBadSequence.map { $0 as Any } ?? NSNull(),
                    "problems": report.problems.map(\.description), "recordedTimesBack": report.recordedTimesBack,
                    "firstRecordedTimeBack": report.firstRecordedTimeBack.map { $0 as Any } ?? NSNull(),
                    "recordedTimesAhead": report.recordedTimesAhead,
                    "firstRecordedTimeAhead": report.firstRecordedTimeAhead.map { $0 as Any } ?? NSNull(),
                    "newestRecordedAt": report.newestRecordedAt.map { $0.iso8601 as Any } ?? NSNull(),
                ]
                let data = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
                print(JSONText.string(data))
            } else if report.isClean && report.newerRecords == 0 {
                let hash = try store.head().hash.prefix(8).map { String(format: "%02x", $0) }.joined()
                print("OK: \(Counted.of(report.eventsChecked, "event")) (head \(report.headSequence), chain \(hash)…), \(Counted.of(report.blobsChecked, "blob")) verified")
            } else {
                for p in report.problems { Terminal.print("BAD \(p)") }
                if report.truncated { print("(more problems not shown)") }
                if let first = report.firstBadSequence {
                    Terminal.error("verification failed: first bad sequence \(first); the log must be restored from a backup from before it")
                } else if !report.isClean {
                    Terminal.error("verification failed: \(report.problems.count) problems")
                }
            }
            if let first = report.firstRecordedTimeBack, !json {
                print("Note: recorded times go back at \(Counted.of(report.recordedTimesBack, "record")), the first at sequence \(first) "
                      + "(written by a build before 2026-12-03 whose clock stepped back): `log --since/--until` and `--as-of TIME` "
                      + "name a point near each such step; sequence numbers are exact")
            }
            if let first = report.firstRecordedTimeAhead, let newest = report.newestRecordedAt, !json {
                print("Note: recorded times are ahead of this machine's clock at \(Counted.of(report.recordedTimesAhead, "record")), the first at "
                      + "sequence \(first), up to \(newest.iso8601) (appended while the clock stood ahead): an event is never recorded "
                      + "before the one before it, so every event appended until the clock passes \(newest.iso8601) is recorded at that "
                      + "time; `log --since/--until` and `--as-of TIME` cannot tell them apart; sequence numbers are exact")
            }
            if let first = report.firstNewerRecord, !json {
                // Not damage: restoring the log from before them would lose them (and the mail they record).
                Terminal.error("the log holds \(Counted.of(report.newerRecords, "event")) written by a newer mailstore, the first at "
                               + "sequence \(first.sequence ?? 0) (\(first.message)): this build cannot check them; upgrade mailstore and "
                               + "verify again (they are not damage: restore nothing for them)")
            }
            if !report.isClean { throw ExitCode(CLIExit.problemsFound) }
            if report.newerRecords > 0 { throw ExitCode(CLIExit.storeError) }
        }
    }

    /// Reports a log that cannot be opened or walked as verify's finding (`BAD`, or JSON with `clean` false), exit 1.
    private func reportUnreadable(_ problem: String, advice: String) throws -> Never {
        if json {
            let obj: [String: Any] = ["clean": false, "problems": [problem]]
            print(JSONText.string(try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])))
        } else {
            Terminal.print("BAD \(problem)")
            Terminal.error("verification failed: \(advice)")
        }
        throw ExitCode(CLIExit.problemsFound)
    }

    func verifyViews() throws {
        let store = try MailStore.open(at: storeOptions.path, notice: { Terminal.warning($0) })
        let bar = ProgressBar("rebuilding in a scratch place", total: nil, quiet: quiet || json)
        // The live views are read a table at a time: another process folding new events meanwhile (a `sync --watch`)
        // puts them ahead of the rebuild, a difference that is no damage. Compared again (up to 3 times) while the
        // log grows under the check; what still differs then is named with that said.
        let compare = { () throws in
            let before = try store.head().sequence
            let (seq, diffs) = try store.compareViewsWithRebuild { done, total in bar.update(done, total: total) }
            return (seq, diffs, try store.head().sequence != before)
        }
        var (seq, diffs, grew) = try compare()
        var attempts = 1
        while !diffs.isEmpty && grew && attempts < 3 {
            Thread.sleep(forTimeInterval: 1)
            attempts += 1
            (seq, diffs, grew) = try compare()
        }
        bar.finish()
        let quarantined = try store.quarantinedEvents()
        if json {
            let obj: [String: Any] = ["clean": diffs.isEmpty && quarantined.isEmpty, "sequence": seq, "differences": diffs.map(\.description),
                                      "logGrew": grew,
                                      "quarantined": quarantined.map { ["sequence": $0.sequence, "view": $0.view, "error": $0.error] as [String: Any] }]
            print(JSONText.string(try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])))
        } else if diffs.isEmpty {
            print("OK: every view equals a rebuild from the log (through sequence \(seq))")
        } else {
            for d in diffs { Terminal.print("DIFF \(d)") }
            if grew {
                Terminal.error("the live views differ from a rebuild, and the log grew while they were compared (three times): "
                               + "another process is writing, and the differences may be its events; run `mailstore verify --views` "
                               + "again when nothing else writes (`mailstore replay` rebuilds the views if they still differ)")
            } else {
                Terminal.error("the live views differ from the log; `mailstore replay` rebuilds them")
            }
        }
        if !quarantined.isEmpty && !json {
            for q in quarantined { Terminal.print("QUARANTINED event \(q.sequence) in view \(q.view): \(q.error)") }
            Terminal.error("\(quarantined.count) event(s) could not be folded into the views (a bug); the views skip them. "
                           + "`mailstore replay` tries them again, e.g. after an upgrade that fixes it")
        }
        if !diffs.isEmpty || !quarantined.isEmpty { throw ExitCode(CLIExit.problemsFound) }
    }
}
