// Tools/bench: mailstore's benchmarks. Build and run in release mode:
//
//   swift build -c release && .build/release/bench log [--events 1000000] [--rounds 3] [--out docs/benchmarks.md]
//   swift build -c release && .build/release/bench import [--messages 100000]
//   swift build -c release && .build/release/bench views [--events 1000000] [--threads 50000]
//   swift build -c release && .build/release/bench sync [--messages 10000] [--server dovecot|courier|cyrus]
//                                                      (starts its own server; needs root)
//   swift build -c release && .build/release/bench actions [--threads 50000]
//   swift build -c release && .build/release/bench compose
//   swift build -c release && .build/release/bench categories [--messages 2000000]
//   swift build -c release && .build/release/bench search [--messages 100000]
//   swift build -c release && .build/release/bench notifications [--messages 100000]
//
// Each suite measures mailstore beside its peer or raw limit in the same run and rewrites its own
// section of docs/benchmarks.md (between `<!-- bench:NAME -->` markers), with the machine it ran on.
import Foundation

@main
enum BenchMain {
    static func main() throws {
        let args = Array(CommandLine.arguments.dropFirst())
        let usage = "usage: bench \(suites.map(\.name).joined(separator: "|")) [--events N] [--rounds N] [--messages N] [--threads N] [--server NAME] [--work DIR] [--out FILE] [--corpus DIR]"
        // Asking for help runs nothing (a suite rewrites its section of docs/benchmarks.md).
        if args.contains(where: { ["--help", "-h", "help"].contains($0) }) {
            print(usage)
            return
        }
        guard let suite = args.first else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(64)
        }
        guard let run = suites.first(where: { $0.name == suite })?.run else {
            FileHandle.standardError.write(Data("bench: unknown suite \(BenchUsageError.printable(suite))\n\(usage)\n".utf8))
            exit(64)
        }
        var options: BenchOptions
        do {
            options = try BenchOptions(args: Array(args.dropFirst()))
            try options.checkOut()
        } catch {
            FileHandle.standardError.write(Data("bench: \(error)\n\(usage)\n".utf8))
            exit(64)
        }
        do {
            // The suites remove their work folder when they end: a folder of their own inside --work, never
            // --work itself (which may be /tmp or a folder holding --out).
            options.work = try BenchOptions.scratch(in: options.work)
        } catch {
            FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
            exit(73)
        }
        let scratch = options.work
        // Before the suite: what memory costs this machine now, for the section's Memory line.
        Report.probeMemory(in: scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let section: String
        do {
            section = try run(options)
        } catch {
            // A suite that fails says why and where, without a crash report: its scratch folder is removed above.
            let ns = error as NSError
            let reason = ns.userInfo[NSLocalizedDescriptionKey] as? String ?? "\(error)"
            FileHandle.standardError.write(Data("bench: the \(suite) suite failed: \(reason)\n".utf8))
            try? FileManager.default.removeItem(atPath: scratch)
            exit(70)
        }
        // The sync suite against another server than Dovecot writes a section of its own (sync-courier, ...).
        // The scale suite writes one section per size (scale-100000, scale-1000000).
        let name = suite == "sync" && options.server != "dovecot" ? "sync-\(options.server)"
            : suite == "scale" ? "scale-\(options.messages)" : suite
        do {
            try Report.write(section: name, body: section, to: options.out)
        } catch {
            // The run's figures are not lost: they go to stdout.
            print(section)
            FileHandle.standardError.write(Data("bench: could not write section '\(name)' into \(options.out) (\(error)); it is printed above\n".utf8))
            try? FileManager.default.removeItem(atPath: scratch)
            exit(74)
        }
        print("wrote section '\(name)' of \(options.out)")
    }

    /// The suites, by the name the command line gives, each with what runs it and returns its section of
    /// docs/benchmarks.md.
    static let suites: [(name: String, run: @Sendable (BenchOptions) throws -> String)] = [
        ("log", { try LogBench(options: $0).run() }),
        ("import", { try ImportBench(options: $0).run() }),
        ("views", { try ViewsBench(options: $0).run() }),
        ("sync", { try SyncBench(options: $0).run() }),
        ("actions", { try ActionsBench(options: $0).run() }),
        ("compose", { try ComposeBench(options: $0).run() }),
        ("categories", { try CategoriesBench(options: $0).run() }),
        ("search", { try SearchBench(options: $0).run() }),
        ("notifications", { try NotificationsBench(options: $0).run() }),
        ("notify-latency", { try NotifyLatencyBench(options: $0).run() }),
        ("scale", { try ScaleBench(options: $0).run() }),
    ]
}

/// Options shared by the suites.
struct BenchOptions {
    var events = 1_000_000
    var messages = 100_000
    /// Whether --messages was given (suites with another default use theirs otherwise).
    var messagesGiven = false
    var threads = 50_000
    /// How many times the log suite runs its appends and scans, and the actions suite its batch and undo (the
    /// median is reported); 1 to 100.
    var rounds = 3
    /// Whether --rounds was given (suites with another default use theirs otherwise).
    var roundsGiven = false
    /// The IMAP server the sync suite runs against: a script in Tools/test-server (dovecot, courier, cyrus).
    var server = "dovecot"
    /// Where suites make their files: each run in a new folder inside it, removed when the suite ends.
    var work = FileManager.default.temporaryDirectory.path + "/mailstore-bench"
    var out = "docs/benchmarks.md"
    /// The real mail the import suite measures store size on (mbox files).
    var corpus = "../shared/corpora/list-mbox"

    /// Parses `args` (after the suite's name). Throws for an option it does not know, one without its value,
    /// or a count that is not a whole number from 1 to 100,000,000, rather than running with a default.
    init(args: [String]) throws(BenchUsageError) {
        var i = 0
        func value() throws(BenchUsageError) -> String {
            guard i + 1 < args.count else { throw BenchUsageError("\(args[i]) needs a value") }
            i += 1
            return args[i]
        }
        func count() throws(BenchUsageError) -> Int {
            let name = args[i]
            let text = try value()
            guard let n = Int(text), (1...100_000_000).contains(n) else {
                throw BenchUsageError("\(name) takes a whole number from 1 to 100000000")
            }
            return n
        }
        while i < args.count {
            switch args[i] {
            case "--events": events = try count()
            case "--messages": messages = try count(); messagesGiven = true
            case "--threads": threads = try count()
            case "--rounds":
                rounds = try count()
                guard rounds <= 100 else { throw BenchUsageError("--rounds takes a whole number from 1 to 100") }
                roundsGiven = true
            case "--server": server = try value()
            case "--work": work = try value()
            case "--out": out = try value()
            case "--corpus": corpus = try value()
            default: throw BenchUsageError("unknown option \(BenchUsageError.printable(args[i]))")
            }
            i += 1
        }
    }
}

/// A bench command line that cannot be run: what is wrong with it.
struct BenchUsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// `text` as it may be echoed to a terminal: its first 64 characters, control characters left out.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
    }
}

extension BenchOptions {
    /// Refuses an `--out` whose folder does not exist, before a suite runs for minutes and has nowhere to write.
    func checkOut() throws(BenchUsageError) {
        let folder = URL(fileURLWithPath: out).deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue,
              FileManager.default.isWritableFile(atPath: folder) else {
            throw BenchUsageError("--out \(BenchUsageError.printable(out)): its folder is missing or not writable")
        }
    }

    /// A new folder (`bench-XXXXXX`, 0700) inside `parent` (made when missing) for a suite's files.
    static func scratch(in parent: String) throws -> String {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        var template = Array((parent + "/bench-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchUsageError("cannot make a folder in --work \(BenchUsageError.printable(parent)): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// The path of a built product beside this bench binary (`mailstore`, `gen-corpus`).
    static func sibling(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path + "/" + name
    }

    /// `mailstore` and `gen-corpus` beside this binary; an error saying to build them when one is missing.
    static func mailstoreAndGenerator() throws -> (mailstore: String, gen: String) {
        let (mailstore, gen) = (sibling("mailstore"), sibling("gen-corpus"))
        for exe in [mailstore, gen] where !FileManager.default.isExecutableFile(atPath: exe) {
            throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(exe) missing: swift build -c release first"])
        }
        return (mailstore, gen)
    }
}
