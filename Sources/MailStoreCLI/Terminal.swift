import Foundation

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

    /// Writes `mailstore: error: message` to stderr.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("mailstore: error: \(message)\n".utf8))
    }

    /// Writes `mailstore: warning: message` to stderr.
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("mailstore: warning: \(message)\n".utf8))
    }

    /// Writes a line to stderr.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// `text` with control characters (C0 but tab, DEL, C1) shown as U+FFFD, for a terminal.
    static func safe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { u in
            (u.value < 0x20 && u != "\t") || (0x7F...0x9F).contains(u.value) ? "\u{FFFD}" : u
        }))
    }
}
