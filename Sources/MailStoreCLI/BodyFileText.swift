import ArgumentParser

/// The text of a `--body-file`: UTF-8 (a byte order mark dropped), or UTF-16 with its byte order mark. Anything else is
/// refused, as argument text that is not UTF-8 is: a Latin-1 file had been saved with U+FFFD for each accented letter,
/// and a UTF-16 one as garbage, without a word.
enum BodyFileText {
    /// `data` decoded; a `ValidationError` (exit 64) naming `path`, the first byte that is not UTF-8 and what to do.
    static func decode(_ data: [UInt8], path: String) throws -> String {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return try utf8(data.dropFirst(3), path: path, offset: 3) }
        if data.starts(with: [0xFF, 0xFE]) { return try utf16(data.dropFirst(2), path: path, bigEndian: false) }
        if data.starts(with: [0xFE, 0xFF]) { return try utf16(data.dropFirst(2), path: path, bigEndian: true) }
        return try utf8(data[...], path: path, offset: 0)
    }

    private static func utf8(_ bytes: ArraySlice<UInt8>, path: String, offset: Int) throws -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = offset
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): position += encoded.count
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error:
                throw ValidationError("\(path) is not UTF-8 text (byte \(position + 1) is not): mailstore reads a body file as UTF-8 "
                                      + "(or UTF-16 with its byte order mark); convert it first, e.g. for Latin-1 text "
                                      + "`iconv -f LATIN1 -t UTF-8 \(path) > body.txt`")
            }
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, path: String, bigEndian: Bool) throws -> String {
        let problem = "\(path) is not UTF-16 text, though it begins with a UTF-16 byte order mark"
        guard bytes.count % 2 == 0 else { throw ValidationError(problem + " (an odd number of bytes): convert it to UTF-8 first") }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var text = String.UnicodeScalarView()
        var parser = Unicode.UTF16.ForwardParser()
        var iterator = units.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): text.append(Unicode.UTF16.decode(encoded))
            case .emptyInput: return String(text)
            case .error: throw ValidationError(problem + " (a lone surrogate): convert it to UTF-8 first")
            }
        }
    }
}
