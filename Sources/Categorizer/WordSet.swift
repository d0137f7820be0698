import Foundation

/// Words to find in lowercased text, bucketed by their first byte: one pass over the text finds the first
/// (leftmost) word it contains.
struct WordSet: Sendable {
    private let buckets: [[[UInt8]]]

    init(_ words: [String]) {
        var b = [[[UInt8]]](repeating: [], count: 256)
        for w in words where !w.isEmpty {
            let bytes = Array(w.utf8)
            b[Int(bytes[0])].append(bytes)
        }
        buckets = b
    }

    /// The leftmost word of the set in `text`, trimmed of spaces.
    func firstMatch(in text: [UInt8]) -> String? {
        text.withUnsafeBufferPointer { t in
            for i in 0..<t.count {
                for w in buckets[Int(t[i])] where w.count <= t.count - i {
                    var j = 1
                    while j < w.count, t[i + j] == w[j] { j += 1 }
                    if j == w.count {
                        return String(decoding: w, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    }
                }
            }
            return nil
        }
    }
}
