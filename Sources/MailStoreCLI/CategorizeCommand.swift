import ArgumentParser
import Foundation
import MailStore

/// `mailstore categorize`: the user's correction of a thread's category, or a re-run of the classifier.
struct CategorizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categorize",
        abstract: "Put a thread in a category (the user's correction, learned for its sender), or re-run the classifier.",
        discussion: """
        `categorize THREAD --as primary|social|promotions|updates|forums` records a user EmailCategorized for \
        every email of the thread and a SenderCategoryLearned for the sender of its newest email (not the account's own): later mail from \
        that sender goes to the same category, and re-runs leave the thread alone.
        `categorize --rerun` re-categorizes every email whose category is from an older classifier version (or \
        which has none) with the current one, as new events; a second run finds everything up to date.
        `mailstore history --email ID` shows why an email is where it is.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The thread (an id from `mailstore project --view threads --json`).") var thread: String?
    @Option(name: .customLong("as"), help: ArgumentHelp("primary, social, promotions, updates or forums.", valueName: "category"))
    var category: String?
    @Flag(help: "Re-categorize the existing mail with the current classifier version.") var rerun = false
    @Flag(help: "Print the result as JSON.") var json = false

    static let choices = ["primary", "social", "promotions", "updates", "forums"]

    func validate() throws {
        if rerun {
            if thread != nil || category != nil { throw ValidationError("--rerun takes no thread and no --as") }
            return
        }
        guard thread != nil else { throw ValidationError("give a thread id and --as CATEGORY, or --rerun") }
        guard let category else { throw ValidationError("give --as primary|social|promotions|updates|forums") }
        if !CategorizeCommand.choices.contains(category.lowercased()) {
            throw ValidationError("unknown category '\(category)': primary, social, promotions, updates or forums")
        }
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let useCase = CategorizeEmailUseCase(store: store)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if rerun {
                let bar = ProgressBar("emails", total: nil, quiet: json)
                let summary = try useCase.rerun { done, total in
                    bar.update(UInt64(max(done, 0)), total: UInt64(max(total, 0)), force: done == total)
                }
                bar.finish()
                if json {
                    print(JSONText.string(try encoder.encode(summary)))
                } else {
                    print("\(summary.classifier): \(Counted.of(summary.examined, "email")), \(summary.recategorized) re-categorized "
                          + "(\(summary.moved) moved), \(summary.upToDate) up to date, \(summary.userCorrections) the user's own, "
                          + "\(summary.missingRaw.count) without their raw message"
                          + (summary.damagedRaw.isEmpty ? "" : ", \(summary.damagedRaw.count) whose raw message is damaged "
                              + "(left as they were: `mailstore verify` names the damaged blobs; restore log/ from a backup)"))
                }
                return
            }
            let c = try useCase.categorizeThread(id: thread!, as: .init(name: category!)!)
            if json {
                print(JSONText.string(try encoder.encode(CorrectionJSON(c))))
            } else {
                print("thread \(c.threadID): \(Counted.of(c.emailIDs.count, "email")) -> \(c.category)"
                      + (c.learnedSender.map { "; later mail from \(CategorizeCommand.printable($0)) too" } ?? ""))
            }
        }
    }

    /// Text from mail made safe for a terminal: control and format characters become `?`.
    static func printable(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? "?" : $0
        }))
    }

    /// The JSON form of a correction.
    struct CorrectionJSON: Encodable {
        var thread: String
        var category: String
        var emails: [String]
        var learnedSender: String?
        var correlationID: String

        init(_ c: CategoryCorrection) {
            thread = c.threadID
            category = c.category.description
            emails = c.emailIDs
            learnedSender = c.learnedSender
            correlationID = c.correlationID.description
        }
    }
}
