import Categorizer
import EventModel
import Foundation
import MailParser

/// A labelled message: where it is from, its label, and its signals.
struct LabelledMessage {
    var source: String
    var label: AICategory
    var signals: MessageSignals
}

/// The labelled sets: the committed hand-written set, and the shared corpora through their label file.
enum LabelledSet {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Labelled")

    /// The shared corpora folder (`../shared/corpora` beside the repository, or `MAILSTORE_SHARED_CORPORA`).
    static var sharedCorpora: URL {
        if let p = ProcessInfo.processInfo.environment["MAILSTORE_SHARED_CORPORA"] { return URL(fileURLWithPath: p) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora")
    }

    /// The hand-written set: blocks that start with `%%% category  source`, then the raw message.
    static func handwritten(_ file: String = "handwritten.txt") throws -> [LabelledMessage] {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        var out: [LabelledMessage] = []
        var header: Substring?
        var lines: [Substring] = []
        func flush() throws {
            guard let h = header else { return }
            let parts = h.split(separator: " ", maxSplits: 1)
            guard let label = AICategory(name: String(parts[0])) else { throw LabelError.badLabel(String(h)) }
            let raw = Array(lines.joined(separator: "\r\n").utf8)
            out.append(LabelledMessage(source: "\(file) #\(out.count + 1): " + (parts.count > 1 ? String(parts[1]) : ""),
                                       label: label, signals: MessageSignals(MailParser.parse(raw))))
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("%%% ") {
                try flush()
                header = line.dropFirst(4)
                lines = []
            } else if line.hasPrefix("#"), header == nil {
                continue
            } else {
                lines.append(line)
            }
        }
        try flush()
        return out
    }

    /// The shared corpora's messages named in `shared-corpora.tsv`, or nil when the corpora are not here.
    static func shared() throws -> [LabelledMessage]? {
        let root = sharedCorpora
        guard FileManager.default.fileExists(atPath: root.path) else { return nil }
        let tsv = try String(contentsOf: folder.appendingPathComponent("shared-corpora.tsv"), encoding: .utf8)
        var mboxes: [String: [[UInt8]]] = [:]
        var out: [LabelledMessage] = []
        for line in tsv.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 3, let label = AICategory(name: f[2]) else { throw LabelError.badLabel(String(line)) }
            let bytes: [UInt8]
            if let hash = f[0].firstIndex(of: "#") {
                let path = String(f[0][..<hash])
                let n = Int(f[0][f[0].index(after: hash)...]) ?? 0
                if mboxes[path] == nil {
                    let data = try Data(contentsOf: root.appendingPathComponent(path))
                    var splitter = MboxSplitter()
                    let messages = data.withUnsafeBytes { splitter.feed($0) } + splitter.finish()
                    mboxes[path] = messages.map(\.bytes)
                }
                guard let all = mboxes[path], n >= 1, n <= all.count else { throw LabelError.missing(f[0]) }
                bytes = all[n - 1]
            } else {
                bytes = Array(try Data(contentsOf: root.appendingPathComponent(f[0])))
            }
            let parsed = MailParser.parse(bytes)
            if !f[1].isEmpty, parsed.messageID != f[1] { throw LabelError.messageIDMismatch(f[0], expected: f[1], found: parsed.messageID) }
            out.append(LabelledMessage(source: f[0], label: label, signals: MessageSignals(parsed)))
        }
        return out
    }

    enum LabelError: Error {
        case badLabel(String)
        case missing(String)
        case messageIDMismatch(String, expected: String, found: String?)
    }
}

/// Per-category precision and recall of a categorizer over a labelled set.
struct Scores {
    var truePositives: [AICategory: Int] = [:]
    var predicted: [AICategory: Int] = [:]
    var actual: [AICategory: Int] = [:]
    var misses: [String] = []
    var total = 0
    var correct = 0

    init(_ set: [LabelledMessage], _ categorizer: Categorizer = Categorizer()) {
        for m in set {
            let r = categorizer.categorize(m.signals)
            total += 1
            actual[m.label, default: 0] += 1
            predicted[r.category, default: 0] += 1
            if r.category == m.label {
                correct += 1
                truePositives[m.label, default: 0] += 1
            } else {
                misses.append("\(m.source): labelled \(m.label), got \(r.category) by \(r.explanation)")
            }
        }
    }

    func precision(_ c: AICategory) -> Double {
        let p = predicted[c] ?? 0
        return p == 0 ? 1 : Double(truePositives[c] ?? 0) / Double(p)
    }

    func recall(_ c: AICategory) -> Double {
        let a = actual[c] ?? 0
        return a == 0 ? 1 : Double(truePositives[c] ?? 0) / Double(a)
    }

    /// A Markdown table of the scores.
    var table: String {
        var s = "| category | messages | precision | recall |\n|---|---|---|---|\n"
        for c in AICategory.allCases where c != .uncategorized {
            s += "| \(c) | \(actual[c] ?? 0) | \(String(format: "%.3f", precision(c))) | \(String(format: "%.3f", recall(c))) |\n"
        }
        s += "| all | \(total) | accuracy \(String(format: "%.3f", Double(correct) / Double(max(total, 1)))) | |\n"
        return s
    }
}
