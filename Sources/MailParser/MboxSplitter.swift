import Foundation

/// Incremental mbox splitter (mboxo/mboxrd, LF or CRLF).
///
/// Feed it chunks of any size; it returns each message as soon as the next
/// From_ line (or `finish()`) proves it complete. It holds at most the
/// current message plus the start of the current line.
///
/// A message starts at a line beginning `From ` that is preceded by a blank
/// line, is the first line of the file, or follows another From_ line (whose
/// message is then empty: returned with empty `bytes`). Lines matching `^>+From ` lose
/// one `>` (when the `From ` ends within the line's first 4,098 bytes). The
/// blank line before a From_ line is not part of the message. The result does
/// not depend on how the input is cut into chunks.
///
/// A message longer than `maxMessageBytes` is not kept: its bytes are counted
/// and dropped as they come, and it is returned with empty `bytes` and its
/// size in `oversizedBytes` (so memory stays bounded whatever the input, e.g.
/// `/dev/zero`).
package struct MboxSplitter: Sendable {
    /// The default most bytes kept per message: 64 MiB.
    package static let defaultMaxMessageBytes = 64 << 20
    /// The most bytes kept per message.
    package let maxMessageBytes: Int

    /// Longest From_ line considered an envelope line.
    private static let maxEnvelopeLine = 4_096
    /// The most bytes of an undecided line held (an envelope line and its CRLF). A line still undecided
    /// when it fills the window is ordinary: deciding only then, on the same bytes however the input is
    /// chunked, keeps the result independent of the chunk boundaries.
    private static let window = maxEnvelopeLine + 2

    private var message: [UInt8] = []
    /// Bytes of the current message seen past the limit (0 while within it).
    private var dropped = 0
    private var inMessage = false
    private var envelopeSender: String?
    private var envelopeDate: Date?
    /// A blank line held back: it separates messages if a From_ line follows.
    private var pendingBlank: [UInt8]?
    /// The start of the current line while it may still be special.
    private var line: [UInt8] = []
    /// How many `>` begin `line`, as far as counted: a line arriving in many pieces is counted once, not
    /// from its start at every piece.
    private var quotes = 0
    /// The current line is ordinary: its remaining bytes go to `message`.
    private var lineIsOrdinary = false
    /// No non-blank line has been seen yet.
    private var atFileStart = true
    /// The current message has only its From_ line so far: another From_ line now is a separator too (the first
    /// one's message is empty), never content.
    private var afterEnvelope = false

    /// Creates a splitter keeping messages of at most `maxMessageBytes` bytes.
    package init(maxMessageBytes: Int = MboxSplitter.defaultMaxMessageBytes) {
        self.maxMessageBytes = max(0, maxMessageBytes)
    }

    /// Processes the next chunk; returns the messages completed by it.
    package mutating func feed(_ chunk: [UInt8]) -> [MboxMessage] {
        var out: [MboxMessage] = []
        chunk.withUnsafeBufferPointer { process($0, into: &out) }
        return out
    }

    /// Processes the next chunk from raw memory; returns completed messages.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [MboxMessage] {
        var out: [MboxMessage] = []
        process(chunk.bindMemory(to: UInt8.self), into: &out)
        return out
    }

    /// Ends the input; returns the last message, if any.
    package mutating func finish() -> [MboxMessage] {
        var out: [MboxMessage] = []
        if !line.isEmpty {
            completeLine(into: &out)
        }
        lineIsOrdinary = false
        emit(into: &out)
        self = MboxSplitter(maxMessageBytes: maxMessageBytes)
        return out
    }

    private static let from: [UInt8] = Array("From ".utf8)

    private mutating func process(_ buf: UnsafeBufferPointer<UInt8>, into out: inout [MboxMessage]) {
        let n = buf.count
        var i = 0
        while i < n {
            let nl = ByteScan.find(ASCII.lf, in: buf, from: i, to: n)
            let end = nl.map { $0 + 1 } ?? n
            if lineIsOrdinary {
                keep(UnsafeBufferPointer(rebasing: buf[i..<end]))
                if nl != nil { lineIsOrdinary = false }
                i = end
                continue
            }
            // Take only as much of an undecided line as needed to decide.
            let room = max(0, MboxSplitter.window - line.count)
            let take = min(end - i, max(room, 1))
            line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<(i + take)]))
            i += take
            if nl != nil && i == end {
                completeLine(into: &out)
            } else {
                decidePartial()
            }
        }
    }

    /// Classification of a line start.
    private enum Prefix {
        case undecided
        case ordinary
        case envelopeCandidate
        case quotedFrom
    }

    /// Empties `line` for the next one.
    private mutating func clearLine() {
        line.removeAll(keepingCapacity: true)
        quotes = 0
    }

    /// The `>` that begin `line`, counting on from where the last count stopped.
    private mutating func countQuotes() -> Int {
        while quotes < line.count, line[quotes] == ASCII.greaterThan { quotes += 1 }
        return quotes
    }

    /// What the line `l`, which begins with `quotes` `>` (and then not one), is so far.
    private func classify(_ l: [UInt8], complete: Bool, quotes k: Int) -> Prefix {
        let quoted = k > 0
        let pattern = MboxSplitter.from
        var m = 0
        while m < pattern.count {
            if k + m >= l.count {
                // Ran out of bytes: still a possible prefix unless the line is complete.
                if complete { return .ordinary }
                // A blank line (or "\r") is also undecided.
                return .undecided
            }
            if l[k + m] != pattern[m] { return .ordinary }
            m += 1
        }
        return quoted ? .quotedFrom : .envelopeCandidate
    }

    /// Whether bytes form a blank line ("", "\n", "\r\n", "\r").
    private static func isBlank(_ l: [UInt8]) -> Bool {
        for b in l where b != ASCII.lf && b != ASCII.cr { return false }
        return true
    }

    /// Decides an incomplete line as early as possible.
    private mutating func decidePartial() {
        let full = line.count >= MboxSplitter.window
        if MboxSplitter.isBlank(line) && !full { return }
        switch classify(line, complete: false, quotes: countQuotes()) {
        case .undecided where !full:
            return
        case .ordinary, .undecided:
            appendOrdinary(line)
            clearLine()
            lineIsOrdinary = true
        case .quotedFrom:
            appendOrdinary(Array(line.dropFirst()))
            clearLine()
            lineIsOrdinary = true
        case .envelopeCandidate:
            if !(atFileStart || pendingBlank != nil || afterEnvelope) || full {
                appendOrdinary(line)
                clearLine()
                lineIsOrdinary = true
            }
        }
    }

    /// Handles a complete line held in `line`.
    private mutating func completeLine(into out: inout [MboxMessage]) {
        defer { clearLine() }
        if MboxSplitter.isBlank(line) {
            guard inMessage else { return }  // leading blank lines
            if let pb = pendingBlank { pb.withUnsafeBufferPointer { keep($0) } }
            pendingBlank = line
            return
        }
        switch classify(line, complete: true, quotes: countQuotes()) {
        case .quotedFrom:
            appendOrdinary(Array(line.dropFirst()))
        case .envelopeCandidate where (atFileStart || pendingBlank != nil || afterEnvelope) && isEnvelope(line):
            emit(into: &out)
            startMessage(envelope: line)
        default:
            appendOrdinary(line)
        }
        atFileStart = false
    }

    /// Appends an ordinary line's bytes, starting a message if needed.
    private mutating func appendOrdinary(_ bytes: [UInt8]) {
        if !inMessage {
            inMessage = true
        }
        afterEnvelope = false
        if let pb = pendingBlank {
            pb.withUnsafeBufferPointer { keep($0) }
            pendingBlank = nil
        }
        bytes.withUnsafeBufferPointer { keep($0) }
        atFileStart = false
    }

    /// Adds bytes to the current message, or only counts them once it is over the limit.
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        if dropped > 0 || message.count + bytes.count > maxMessageBytes {
            dropped += bytes.count + message.count
            message = []
            return
        }
        message.append(contentsOf: bytes)
    }

    /// Whether a `From ` line is an envelope line: at file start any is;
    /// later it needs a sender and something with a digit (the date).
    private func isEnvelope(_ l: [UInt8]) -> Bool {
        if atFileStart { return true }
        var i = MboxSplitter.from.count
        while i < l.count, l[i] == ASCII.space { i += 1 }
        let senderStart = i
        while i < l.count, !ASCII.isWhitespace(l[i]) { i += 1 }
        guard i > senderStart else { return false }
        while i < l.count {
            if ASCII.isDigit(l[i]) { return true }
            i += 1
        }
        return false
    }

    /// Starts a new message from its From_ line.
    private mutating func startMessage(envelope l: [UInt8]) {
        inMessage = true
        afterEnvelope = true
        pendingBlank = nil
        message = []
        dropped = 0
        var end = l.count
        while end > 0, ASCII.isWhitespace(l[end - 1]) { end -= 1 }
        var i = MboxSplitter.from.count
        while i < end, ASCII.isWSP(l[i]) { i += 1 }
        let senderStart = i
        while i < end, !ASCII.isWhitespace(l[i]) { i += 1 }
        envelopeSender = i > senderStart ? ByteScan.headerString(Array(l[senderStart..<i])) : nil
        let dateText = String(decoding: l[min(i, end)..<end], as: UTF8.self)
        envelopeDate = MailDate.parse(dateText)
    }

    /// Emits the current message (without the held blank line).
    private mutating func emit(into out: inout [MboxMessage]) {
        defer {
            inMessage = false
            afterEnvelope = false
            pendingBlank = nil
            envelopeSender = nil
            envelopeDate = nil
            dropped = 0
        }
        guard inMessage else { return }
        if dropped > 0 {
            message = []
            out.append(MboxMessage(bytes: [], envelopeSender: envelopeSender, envelopeDate: envelopeDate, oversizedBytes: dropped))
            return
        }
        let bytes = message
        message = []
        if bytes.isEmpty && envelopeSender == nil && envelopeDate == nil { return }
        out.append(MboxMessage(bytes: bytes, envelopeSender: envelopeSender, envelopeDate: envelopeDate))
    }
}
