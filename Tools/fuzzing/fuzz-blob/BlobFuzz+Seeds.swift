import EventLog
import Foundation

extension BlobFuzz {
    /// Writes the seed corpus into `directory`: the messages of the mime seeds (`Tools/fuzzing/corpus/mime`, read
    /// from the working directory, as `Tools/fuzz` runs) as they are, and each stored as a blob is, raw or compressed,
    /// with and without the dictionary.
    static func writeSeeds(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mime = "Tools/fuzzing/corpus/mime"
        for name in try FileManager.default.contentsOfDirectory(atPath: mime).sorted() {
            let message = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mime + "/" + name)))
            try Data(message).write(to: URL(fileURLWithPath: "\(directory)/message-\(name)"))
            for (suffix, dictionary) in [("stored", nil), ("stored-dictionary", BlobFuzz.dictionary)] {
                let pending = try message.withUnsafeBytes { try encoder.prepare($0, dictionary: dictionary) }
                try Data(pending.stored).write(to: URL(fileURLWithPath: "\(directory)/\(suffix)-\(name)"))
            }
        }
    }
}
