import MailParser

/// The one sanitiser for text from mail or servers printed on a terminal (``MailParser``'s
/// `TerminalText`): escape sequences, C0/C1 controls and bidi controls removed. `line` for one line,
/// `block` for a body. JSON output does not use it (the JSON encoder escapes controls).
public typealias TerminalSanitiser = TerminalText
