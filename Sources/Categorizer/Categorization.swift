import EventModel

/// Where the categorizer put a message, and why.
public struct Categorization: Sendable, Equatable {
    /// The category.
    public var category: AICategory
    /// The rule that fired: a stable id such as `forums.list-post` (see docs/categories.md).
    public var rule: String
    /// The evidence the rule saw (a header value, a domain, a word), sanitised and at most 80 characters.
    public var evidence: String

    /// Creates a result.
    public init(category: AICategory, rule: String, evidence: String = "") {
        self.category = category
        self.rule = rule
        self.evidence = Categorization.sanitised(evidence)
    }

    /// The rule with its evidence, as `EmailCategorized.rule` records it: `forums.list-post: <mailto:…>`.
    public var explanation: String { evidence.isEmpty ? rule : "\(rule): \(evidence)" }

    /// Text from mail, safe for a terminal and a log line: control characters become spaces, at most 80 characters.
    static func sanitised(_ s: String) -> String {
        if s.utf8.count <= 80, s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return s }
        var out = ""
        out.reserveCapacity(min(s.utf8.count, 80))
        var n = 0
        for u in s.unicodeScalars {
            if n == 80 { out += "…"; break }
            let c: Unicode.Scalar = (u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value)
                || u.properties.generalCategory == .format) ? " " : u
            out.unicodeScalars.append(c)
            n += 1
        }
        return out
    }
}
