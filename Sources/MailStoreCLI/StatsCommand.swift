import ArgumentParser
import EventModel
import Foundation
import MailStore

/// `mailstore stats`: counts and sizes.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Events by type, bytes, blobs and compression ratio.")

    @OptionGroup var storeOptions: StoreOptions

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path, readOnly: true)
            let s = try store.stats()
            let views = try? store.viewsStatus()
            let quarantined = views?.quarantined ?? []
            let lastRecorded = try store.lastRecordedTime()
            if json {
                let obj: [String: Any] = [
                    "events": s.events, "recordBytes": s.recordBytes, "payloadBytes": s.payloadBytes,
                    "storedPayloadBytes": s.storedPayloadBytes, "blobs": s.blobs, "blobRawBytes": s.blobRawBytes,
                    "blobStoredBytes": s.blobStoredBytes, "dictionaries": s.dictionaries, "dictionaryBytes": s.dictionaryBytes, "fileBytes": s.fileBytes, "compressionRatio": s.compressionRatio,
                    "pagesMappedSingly": MailStore.faultAroundRefusal == nil,
                    "lastRecordedAt": lastRecorded.map { Timestamp($0).iso8601 as Any } ?? NSNull(),
                    "types": s.types.map { ["type": $0.type.name, "count": $0.count, "bytes": $0.storedBytes] as [String: Any] },
                    "views": views.map { v in
                        ["generation": v.generation, "checkpoints": v.checkpoints,
                         "historyWindows": v.historyWindows, "historyThrough": v.historyThrough.map { $0 as Any } ?? NSNull(),
                         "historyBytes": v.historyBytes, "keepsHistory": v.keepsHistory, "historyWindowEvents": v.windowEvents,
                         "historyLongestWindow": v.historyLongestWindow.map { ["end": $0.end, "events": $0.events] as [String: Any] } ?? NSNull(),
                         "viewsFileBytes": v.viewsFileBytes, "searchIndexBytes": v.searchIndexBytes, "logFileBytes": v.logFileBytes,
                         "totalBytes": v.totalBytes,
                         "quarantined": v.quarantined.map { ["sequence": $0.sequence, "view": $0.view, "error": $0.error] as [String: Any] }]
                        as [String: Any]
                    } ?? NSNull(),
                ]
                let data = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
                print(JSONText.string(data))
                return
            }
            print("Store \(store.directory.path)")
            print("Events: \(s.events)" + (s.events > 0 ? String(format: ", %.0f bytes/event stored", Double(s.recordBytes) / Double(s.events)) : ""))
            for t in s.types {
                print("  \(LogCommand.pad(t.type.name, 24)) \(LogCommand.pad(String(t.count), 10, right: true))  \(StatsCommand.bytes(t.storedBytes))")
            }
            print("Records: \(StatsCommand.bytes(s.recordBytes)) (payloads \(StatsCommand.bytes(s.payloadBytes)) raw, \(StatsCommand.bytes(s.storedPayloadBytes)) stored)")
            print("Blobs: \(s.blobs), \(StatsCommand.bytes(s.blobRawBytes)) raw, \(StatsCommand.bytes(s.blobStoredBytes)) stored"
                  + (s.dictionaries > 0 ? ", \(Counted.of(s.dictionaries, "zstd dictionary", plural: "zstd dictionaries")) of \(StatsCommand.bytes(s.dictionaryBytes))" : ""))
            print(String(format: "Compression ratio: %.2f", s.compressionRatio))
            print("Log file: \(StatsCommand.bytes(s.fileBytes)) used of a \(StatsCommand.bytes(s.mapBytes)) map")
            if let refusal = MailStore.faultAroundRefusal {
                print("Memory maps: the kernel's fault-around stays on (\(refusal)): folds may map more than their budget")
            } else {
                print("Memory maps: one page per fault in folds, imports and verify (the kernel's fault-around off)")
            }
            if let v = views {
                print("Views: \(v.generation), folded through sequence \(v.checkpoints.values.min() ?? 0)")
                print("On disk: \(StatsCommand.bytes(UInt64(v.totalBytes))) in all: log file \(StatsCommand.bytes(UInt64(v.logFileBytes))), "
                      + "views \(StatsCommand.bytes(UInt64(v.viewsFileBytes))) (their history \(StatsCommand.bytes(UInt64(v.historyBytes)))), "
                      + "search index \(StatsCommand.bytes(UInt64(v.searchIndexBytes)))")
                if v.keepsHistory {
                    print("View history (for --as-of): \(Counted.of(v.historyWindows, "window")) of at most \(Counted.of(v.windowEvents, "event"))"
                          + (v.historyThrough.map { ", the last ending at sequence \($0)" } ?? ""))
                } else {
                    print("View history (for --as-of): none (views written by an older build; `mailstore replay` rebuilds them with one)")
                }
            }
            if let last = lastRecorded, last.timeIntervalSinceNow > StatsCommand.aheadSlackSeconds {
                print("Note: the last event is recorded at \(Timestamp(last).iso8601), ahead of this machine's clock (appended while the "
                      + "clock stood ahead): events appended until the clock passes it are recorded at that time (`mailstore verify` "
                      + "counts them)")
            }
            if !quarantined.isEmpty {
                print("Quarantined events (the views could not fold them; `mailstore replay` tries them again): \(quarantined.count)")
                for q in quarantined.prefix(20) { Terminal.print("  \(q.sequence) \(q.view): \(q.error)") }
            }
        }
    }

    /// How far ahead of the clock the last event's time may be before `stats` notes it (as `verify` counts).
    static let aheadSlackSeconds: Double = 60

    static func bytes(_ n: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = Double(n)
        var i = 0
        while v >= 1024 && i < units.count - 1 {
            v /= 1024
            i += 1
        }
        return i == 0 ? "\(n) B" : String(format: "%.1f", v) + " " + units[i]
    }
}
