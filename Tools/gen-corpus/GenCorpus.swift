import ArgumentParser
import CorpusGenerator

extension CorpusFormat: ExpressibleByArgument {}

@main
struct GenCorpus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gen-corpus",
        abstract: "Generate a deterministic, realistic mail corpus (Maildir++ or mboxrd).",
        discussion: """
            The same options and --seed always produce byte-identical output. Messages have CRLF \
            line ends; dates start at 2024-01-01T00:00:00Z and span two years. With --accounts N > 1 \
            each account is written to DIR/accountK. The output directory must be empty or absent.
            """)

    @Option(name: .long, help: "Number of message files (mbox entries) to write.")
    var messages: Int

    @Option(name: .long, help: "Output directory (created if missing; must be empty).")
    var out: String

    @Option(name: .long, help: "Output format: maildir or mbox.")
    var format: CorpusFormat = .maildir

    @Option(name: .long, help: "Seed of the generator.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Number of accounts (mailboxes) to split the messages over.")
    var accounts: Int = 1

    @Flag(name: .long, help: "Print nothing.")
    var quiet = false

    func validate() throws {
        if messages < 0 { throw ValidationError("--messages must be >= 0") }
        if accounts < 1 { throw ValidationError("--accounts must be >= 1") }
        if out.isEmpty { throw ValidationError("--out must not be empty") }
    }

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        // CorpusError is CustomStringConvertible: ArgumentParser prints "Error: ..." and exits 1.
        let summary = try generateCorpus(CorpusOptions(
            messages: messages, outputDirectory: out, format: format, seed: seed, accounts: accounts))
        let elapsed = clock.now - start
        if !quiet {
            let ms = Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
            let seconds = "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
            print("gen-corpus: \(summary.messages) messages (\(summary.uniqueMessages) unique) written, "
                + "\(summary.bytes) bytes, \(summary.threads) threads, \(seconds)s "
                + "[\(format.rawValue), seed \(seed), \(accounts) account\(accounts == 1 ? "" : "s") -> \(out)]")
        }
    }
}
