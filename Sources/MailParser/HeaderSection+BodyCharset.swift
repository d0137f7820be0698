extension HeaderSection {
    /// Reads again in `charset` (the charset the message's body declares) the values whose 8-bit bytes were read as
    /// Windows-1252 (``windows1252Fields``), each one whose bytes decode cleanly in it (no byte rejected). Valid
    /// UTF-8 stays UTF-8 (RFC 6532: it was never read as Windows-1252), and a charset that is not a byte-based ASCII
    /// one (UTF-16, ISO-2022-JP, UTF-7), UTF-8, US-ASCII, ISO-8859-1 or Windows-1252 changes nothing. Bounded by the
    /// values (at most ``maxFields`` of at most ``maxValueBytes``). Returns whether a value changed.
    mutating func readUndeclared8Bit(as charset: String) -> Bool {
        guard let name = Charsets.undeclaredHeaderCharset(charset) else { return false }
        var changed = false
        for i in windows1252Fields {
            guard let bytes = Charsets.encodeWindows1252(fields[i].value) else { continue }
            let (text, warning) = Charsets.decode(bytes, charset: name)
            guard warning == nil else { continue }
            fields[i].value = text
            changed = true
        }
        return changed
    }
}
