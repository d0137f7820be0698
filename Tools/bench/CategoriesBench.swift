import Categorizer
import EventModel
import Foundation
import MailParser

/// The categories suite: how fast the categorizer files mail, on one core. Inputs are the categorizer's
/// labelled messages (the hand-written set in Tests/CategorizerTests/Labelled, plus the shared corpora when
/// present), cycled: the rules (from extracted signals), signal extraction plus the rules (from a parsed
/// message: what ingest adds to the parse it does anyway), and parse + extraction + rules from raw bytes.
struct CategoriesBench {
    let options: BenchOptions

    func run() throws -> String {
        let raws = try CategoriesBench.messages()
        precondition(!raws.isEmpty, "no labelled messages found: run from the repository root")
        let parsed = raws.map { MailParser.parse($0) }
        let signals = parsed.map { MessageSignals($0) }
        var rules = SenderRules()
        for i in 0..<1000 { rules.learn("sender\(i)@learned.example", .primary) }
        let categorizer = Categorizer(senderRules: rules, ownAddresses: ["me@example.net"])
        let n = options.messagesGiven ? options.messages : 2_000_000
        var tally = [Int](repeating: 0, count: 6)

        print("rules on \(n) messages…")
        _ = categorizer.categorize(signals[0])
        let rulesTime = Stopwatch.seconds {
            for i in 0..<n { tally[Int(categorizer.categorize(signals[i % signals.count]).category.rawValue)] += 1 }
        }
        let m = max(1, n / 10)
        print("signals + rules on \(m) parsed messages…")
        let extractTime = Stopwatch.seconds {
            for i in 0..<m { tally[Int(categorizer.categorize(MessageSignals(parsed[i % parsed.count])).category.rawValue)] += 1 }
        }
        let k = max(1, n / 100)
        print("parse + signals + rules on \(k) raw messages…")
        let fullTime = Stopwatch.seconds {
            for i in 0..<k { tally[Int(categorizer.categorize(MessageSignals(MailParser.parse(raws[i % raws.count]))).category.rawValue)] += 1 }
        }
        let parseOnly = Stopwatch.seconds {
            for i in 0..<k { tally[0] &+= MailParser.parse(raws[i % raws.count]).headers.count }
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        let avg = Double(raws.reduce(0) { $0 + $1.count }) / Double(raws.count)
        let dist = AICategory.allCases.dropFirst().map { "\($0) \(tally[Int($0.rawValue)])" }.joined(separator: ", ")
        return """
        ## Categories

        `swift run -c release bench categories [--messages N]` — the rule-based categorizer (`rules/\(Categorizer.version)`),
        one core, over the \(raws.count) labelled messages (average \(Fmt.int(avg)) bytes) cycled, with 1,000 learned
        sender rules loaded. Aim: >= 100,000 emails/s categorized.

        | what | emails | emails/s | µs/email |
        |---|---:|---:|---:|
        | rules (signals -> category, rule, evidence) | \(Fmt.int(Double(n))) | \(Fmt.int(Double(n) / rulesTime)) | \(Fmt.f(rulesTime / Double(n) * 1e6, 2)) |
        | signal extraction + rules, from a parsed message (what ingest adds) | \(Fmt.int(Double(m))) | \(Fmt.int(Double(m) / extractTime)) | \(Fmt.f(extractTime / Double(m) * 1e6, 2)) |
        | parse + extraction + rules, from raw bytes (`--rerun`'s per-email work besides the blob read) | \(Fmt.int(Double(k))) | \(Fmt.int(Double(k) / fullTime)) | \(Fmt.f(fullTime / Double(k) * 1e6, 2)) |
        | the parse alone, for comparison | \(Fmt.int(Double(k))) | \(Fmt.int(Double(k) / parseOnly)) | \(Fmt.f(parseOnly / Double(k) * 1e6, 2)) |

        Results (last run, all passes): \(dist). Load average at the end (1, 5, 15 min): \(load) on \(ProcessInfo.processInfo.activeProcessorCount) cores;
        other work on the machine slows every row alike (the parse row is the same parser import uses).

        \(Report.machine(workDir: FileManager.default.currentDirectoryPath))
        """
    }

    /// The labelled messages' raw bytes.
    static func messages() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for file in ["handwritten.txt", "heldout.txt"] {
            let text = try String(contentsOfFile: "Tests/CategorizerTests/Labelled/" + file, encoding: .utf8)
            var current: [Substring]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("%%% ") {
                    if let c = current { out.append(Array(c.joined(separator: "\r\n").utf8)) }
                    current = []
                } else if current != nil {
                    current!.append(line)
                }
            }
            if let c = current { out.append(Array(c.joined(separator: "\r\n").utf8)) }
        }
        let shared = "../shared/corpora"
        if let walker = FileManager.default.enumerator(atPath: shared) {
            for case let rel as String in walker where !rel.hasSuffix(".mbox") {
                var isDir: ObjCBool = false
                let path = shared + "/" + rel
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                   let d = FileManager.default.contents(atPath: path) {
                    out.append(Array(d))
                }
            }
        }
        return out
    }
}
