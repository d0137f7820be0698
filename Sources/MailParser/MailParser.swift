import Foundation

/// Entry points of the mail parser. Parsing is pure, never throws and
/// never traps: malformed input is parsed as well as possible and the
/// problems are listed in `ParsedMessage.warnings`.
package enum MailParser {
    /// Parses one RFC 5322 / MIME message.
    /// - Parameters:
    ///   - bytes: the raw message (a leading mbox `From ` line is skipped).
    ///   - fallbackDate: used when neither `Date:` nor `Received:` give a
    ///     date (for example the mbox From_ line date or a file time).
    ///   - now: the present, when the message is being stored: a date more than a day past it is replaced by the
    ///     arrival (``FutureDate``); nil checks the date against the `Received:` header alone.
    package static func parse(_ bytes: [UInt8], fallbackDate: Date? = nil, now: Date? = nil) -> ParsedMessage {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, fallbackDate: fallbackDate, now: now) }
    }

    /// Parses one message from raw memory (for example a memory-mapped
    /// file). Byte ranges in the result are offsets into `bytes`.
    package static func parse(_ bytes: UnsafeRawBufferPointer, fallbackDate: Date?, now: Date? = nil) -> ParsedMessage {
        parse(buffer: bytes.bindMemory(to: UInt8.self), fallbackDate: fallbackDate, now: now)
    }

    /// Parses only the MIME structure of one message: its root part, as `parse(_:)` gives it (embedded
    /// messages parsed whole), without the envelope, dates, body selection and snippet. For readers that walk
    /// the parts themselves (the search index), which spent ~40% of their parse on what they then threw away.
    package static func parseStructure(_ bytes: [UInt8]) -> MIMEPart {
        bytes.withUnsafeBufferPointer { buf in
            var budget = MIMEParser.maxParts
            return MessageParser.parseStructure(buf, range: 0..<buf.count, depth: 0, partBudget: &budget)
        }
    }

    /// Parses from a typed buffer.
    static func parse(buffer: UnsafeBufferPointer<UInt8>, fallbackDate: Date?, now: Date? = nil) -> ParsedMessage {
        var budget = MIMEParser.maxParts
        return MessageParser.parse(buffer, range: 0..<buffer.count, fallbackDate: fallbackDate, now: now, depth: 0,
                                   partBudget: &budget)
    }
}
