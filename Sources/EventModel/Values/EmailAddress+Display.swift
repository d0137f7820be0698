extension EmailAddress {
    /// The characters RFC 5322 calls specials (§3.2.3), and the backslash: a display name with one is written as a
    /// quoted string, as Python's email package writes it.
    private static let specials: Set<Unicode.Scalar> = ["(", ")", "<", ">", "[", "]", ":", ";", "@", "\\", ",", ".", "\""]

    /// The address as a person reads it: `name <email>`, the bare address when the name is nil or empty. A name
    /// with a special (`Evil <ceo@bank.com>`, `Doe, Jane`) is put in double quotes, `\` and `"` in it escaped
    /// (an RFC 5322 quoted string), so one address never reads as two.
    public var displayed: String {
        guard let name, !name.isEmpty else { return email }
        return "\(EmailAddress.displayName(name)) <\(email)>"
    }

    /// A display name as `displayed` writes it: as it is, or quoted when it holds a special.
    public static func displayName(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: { specials.contains($0) }) else { return name }
        return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
