import Foundation
import MailStore

/// Terminal output: stderr messages, TTY checks, and a progress bar that only shows on a terminal.
enum Terminal {
    /// True when stdout is a terminal.
    static var stdoutIsTTY: Bool { isatty(1) == 1 }
    /// True when stderr is a terminal.
    static var stderrIsTTY: Bool { isatty(2) == 1 }

    /// The terminal width (80 when unknown).
    static var width: Int {
        var w = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0 { return Int(w.ws_col) }
        if let c = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(c), n > 0 { return n }
        return 80
    }

    /// Writes `mailstore: error: message` to stderr (sanitised: errors quote servers and mail; bounded, `bounded`).
    static func error(_ message: String) {
        StandardStream.err(Data("mailstore: error: \(TerminalSanitiser.block(bounded(message)))\n".utf8))
    }

    /// Writes `mailstore: warning: message` to stderr (sanitised and bounded).
    static func warning(_ message: String) {
        StandardStream.err(Data("mailstore: warning: \(TerminalSanitiser.block(bounded(message)))\n".utf8))
    }

    /// The most Unicode scalars of an error or warning printed whole.
    static let maxMessageScalars = 2_000

    /// `message` whole when it has at most `maxMessageScalars`, else its first 1,000 and last 500 scalars with what was
    /// cut said between them: a message quoting a huge argument or server text keeps its hint, which ends it. Counted in
    /// scalars, not characters: one character can be a base and any number of combining marks.
    static func bounded(_ message: String) -> String {
        let scalars = message.unicodeScalars
        let n = scalars.count
        guard n > maxMessageScalars else { return message }
        var head = String.UnicodeScalarView(), tail = String.UnicodeScalarView()
        head.append(contentsOf: scalars.prefix(1_000))
        tail.append(contentsOf: scalars.suffix(500))
        return "\(String(head)) … (\(n - 1_500) characters cut) … \(String(tail))"
    }

    /// Writes a line to stderr (sanitised).
    static func note(_ message: String) {
        StandardStream.err(Data((TerminalSanitiser.block(message) + "\n").utf8))
    }

    /// Prints text that comes from mail or a server on stdout as one line, without escape sequences,
    /// controls or bidi controls (line breaks become spaces).
    static func print(_ text: String) {
        Swift.print(TerminalSanitiser.line(text))
    }

    /// Prints text that comes from mail or a server on stdout, its line breaks and tabs kept,
    /// without escape sequences, other controls or bidi controls.
    static func printBlock(_ text: String) {
        Swift.print(TerminalSanitiser.block(text))
    }
}
