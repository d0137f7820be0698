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
        guard let suite = args.first else {
            print("usage: bench log|import|views|sync|actions|compose|categories|search|notifications|notify-latency|scale [--events N] [--rounds N] [--messages N] [--threads N] [--server NAME] [--work DIR] [--out FILE]")
            exit(64)
        }
        let options = BenchOptions(args: Array(args.dropFirst()))
        let section: String
        switch suite {
        case "log": section = try LogBench(options: options).run()
        case "import": section = try ImportBench(options: options).run()
        case "views": section = try ViewsBench(options: options).run()
        case "sync": section = try SyncBench(options: options).run()
        case "actions": section = try ActionsBench(options: options).run()
        case "compose": section = try ComposeBench(options: options).run()
        case "categories": section = try CategoriesBench(options: options).run()
        case "search": section = try SearchBench(options: options).run()
        case "notifications": section = try NotificationsBench(options: options).run()
        case "notify-latency": section = try NotifyLatencyBench(options: options).run()
        case "scale": section = try ScaleBench(options: options).run()
        default:
            print("unknown suite \(suite)")
            exit(64)
        }
        // The sync suite against another server than Dovecot writes a section of its own (sync-courier, ...).
        // The scale suite writes one section per size (scale-100000, scale-1000000).
        let name = suite == "sync" && options.server != "dovecot" ? "sync-\(options.server)"
            : suite == "scale" ? "scale-\(options.messages)" : suite
        try Report.write(section: name, body: section, to: options.out)
        print("wrote section '\(name)' of \(options.out)")
    }
}

/// Options shared by the suites.
struct BenchOptions {
    var events = 1_000_000
    var messages = 100_000
    /// Whether --messages was given (suites with another default use theirs otherwise).
    var messagesGiven = false
    var threads = 50_000
    /// How many times the log suite runs its appends and scans (the median is reported).
    var rounds = 3
    /// The IMAP server the sync suite runs against: a script in Tools/test-server (dovecot, courier, cyrus).
    var server = "dovecot"
    var work = FileManager.default.temporaryDirectory.path + "/mailstore-bench"
    var out = "docs/benchmarks.md"
    /// The real mail the import suite measures store size on (mbox files).
    var corpus = "../shared/corpora/list-mbox"

    init(args: [String]) {
        var i = 0
        while i < args.count {
            let v = i + 1 < args.count ? args[i + 1] : ""
            switch args[i] {
            case "--events": events = Int(v) ?? events; i += 1
            case "--messages": messages = Int(v) ?? messages; messagesGiven = true; i += 1
            case "--threads": threads = Int(v) ?? threads; i += 1
            case "--rounds": rounds = Int(v).map { max(1, min($0, 20)) } ?? rounds; i += 1
            case "--server": server = v; i += 1
            case "--work": work = v; i += 1
            case "--out": out = v; i += 1
            case "--corpus": corpus = v; i += 1
            default: break
            }
            i += 1
        }
    }
}

extension BenchOptions {
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
