import EventLog
import Foundation

/// Where an account's secret (password, app password or OAuth token) comes from. Only this reference is
/// stored (in `AccountAdded.credentialSource`); the secret itself never enters the store, the log, argv or
/// any output.
public enum CredentialSource: Sendable, Equatable, CustomStringConvertible {
    /// A file holding the secret (mode 0600; one trailing newline is ignored).
    case file(String)
    /// A shell command printing the secret on its standard output (e.g. `pass show mail`); it must finish
    /// within 10 s and print at most 64 KiB, or it is killed (with its process group).
    case command(String)
    /// An environment variable holding the secret.
    case environment(String)
    /// OAuth 2.0: the account's token file (``OAuthTokenFile``, 0600, under `STORE/secrets/`); the secret
    /// read from it is a current access token, refreshed when it is about to expire. The stored path is taken
    /// in the store in use (``inStore(_:)``, `MailStore.credentialSource(of:smtp:)`) before it is read.
    case oauth(String)

    /// The stored form: `file:PATH`, `command:CMD`, `env:VAR` or `oauth:PATH` (`PATH` relative to the store, or
    /// absolute as older events recorded it).
    public var description: String {
        switch self {
        case .file(let p): "file:\(p)"
        case .command(let c): "command:\(c)"
        case .environment(let v): "env:\(v)"
        case .oauth(let p): "oauth:\(p)"
        }
    }

    /// The same source with a relative file path made absolute, and a password command whose program (its first
    /// word) is a relative path (`./getpw.sh`, `bin/pw`: a `/`, not first) run by its absolute path, as the
    /// current directory is now: the store may be used from anywhere. A program found on PATH (`pass`) or given
    /// from `/`, `~` or a variable (`$HOME/bin/pw`) stays as written. A relative program with shell syntax in its name (quotes, `$`, `=`, ...)
    /// is refused (`option` names the flag): it cannot be resolved without running a shell.
    func withAbsolutePath(option: String) throws(AccountError) -> CredentialSource {
        switch self {
        case .file(let p): return .file(AccountSettings.absolute(p))
        case .command(let cmd):
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let rest = cmd.drop(while: blank)
            let program = rest.prefix { !blank($0) && $0 != "\n" }
            // From `/`, `~` or a variable (`$HOME/bin/pw`), quoted or not, it is where it is from any directory.
            let unquoted = program.drop { $0 == "\"" || $0 == "'" }
            guard program.contains("/"), !["/", "~", "$"].contains(where: { unquoted.hasPrefix($0) }) else { return self }
            guard program.unicodeScalars.allSatisfy(CredentialSource.isPlainPathScalar) else {
                let shown = program.unicodeScalars.prefix(80)
                    .map { AccountDiscovery.isInvisible($0) ? "<U+\(String($0.value, radix: 16, uppercase: true))>" : String($0) }.joined()
                throw .invalid("\(option) starts with \"\(shown)\", a relative path holding shell syntax "
                               + "(quotes, $, =, ...) that mailstore cannot make absolute: give the program's absolute path, so "
                               + "the command runs the same from any directory")
            }
            let absolute = URL(fileURLWithPath: AccountSettings.absolute(String(program))).standardized.path
            return .command(CredentialSource.shellQuoted(absolute) + String(rest.dropFirst(program.count)))
        case .environment, .oauth: return self
        }
    }

    /// A character a path may hold unquoted in a shell command: ASCII letters, digits and `. _ - + / , @ % :`.
    private static func isPlainPathScalar(_ s: Unicode.Scalar) -> Bool {
        s.isASCII && (CharacterSet.alphanumerics.contains(s) || "._-+/,@%:".unicodeScalars.contains(s))
    }

    /// `path` as one shell word: as is when every character is plain, else single-quoted (`'` as `'\''`).
    static func shellQuoted(_ path: String) -> String {
        if path.unicodeScalars.allSatisfy(isPlainPathScalar) { return path }
        return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Parses the stored form.
    public init?(stored: String) {
        if let r = stored.dropPrefix("file:") { self = .file(r) }
        else if let r = stored.dropPrefix("command:") { self = .command(r) }
        else if let r = stored.dropPrefix("env:") { self = .environment(r) }
        else if let r = stored.dropPrefix("oauth:") { self = .oauth(r) }
        else { return nil }
    }

    /// Checks that the source can be used: the file exists, is a regular file and is 0600 (or stricter);
    /// the variable name is valid (and from now on kept from every command this process starts,
    /// `ShellProcess.withhold`). Commands are only checked when run.
    public func validate() throws(AccountError) {
        switch self {
        case .file(let path), .oauth(let path):
            var st = stat()
            guard stat(path, &st) == 0 else { throw .credentialUnavailable("\(path): \(String(cString: strerror(errno)))") }
            guard (st.st_mode & S_IFMT) == S_IFREG else { throw .credentialUnavailable("\(path) is not a regular file") }
            let mode = st.st_mode & 0o777
            guard mode & 0o077 == 0 else {
                throw .insecurePasswordFile(path, String(mode, radix: 8))
            }
        case .environment(let name):
            guard !name.isEmpty, name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }) else {
                throw .invalid("--password-env wants an environment variable name, got \"\(name)\"")
            }
            ShellProcess.withhold([name])
        case .command(let cmd):
            guard !cmd.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalid("--password-command is empty") }
        }
    }

    /// Reads the secret now.
    public func secret() throws(AccountError) -> String {
        try validate()
        let value: String
        switch self {
        case .oauth:
            return try oauthAccessToken(forceRefresh: false)
        case .file(let path):
            // As much as a password command may print (64 KiB): a secret is far shorter, and a file that is not one
            // is not read whole.
            let limit = PasswordCommand.defaultOutputLimit
            let data: [UInt8]
            do throws(BoundedFile.Failure) { data = try BoundedFile.read(path, maxBytes: limit) } catch {
                switch error {
                case .tooLarge: throw .credentialUnavailable("\(path) is over \(limit) bytes: not a password file")
                case .notAFile: throw .credentialUnavailable("\(path) is not a regular file")
                case .unreadable(let why): throw .credentialUnavailable("cannot read \(path): \(why)")
                }
            }
            value = String(decoding: data, as: UTF8.self)
        case .environment(let name):
            guard let v = ProcessInfo.processInfo.environment[name] else {
                throw .credentialUnavailable("the environment variable \(name) is not set")
            }
            value = v
        case .command(let cmd):
            value = try CredentialSource.run(cmd)
        }
        let trimmed = value.hasSuffix("\r\n") ? String(value.dropLast(2)) : value.hasSuffix("\n") ? String(value.dropLast()) : value
        guard !trimmed.isEmpty else { throw .credentialUnavailable("the \(kind) gave an empty secret") }
        return trimmed
    }

    var kind: String {
        switch self {
        case .file: "password file"
        case .command: "password command"
        case .environment: "environment variable"
        case .oauth: "OAuth token file"
        }
    }

    /// Runs the password command: at most `PasswordCommand.defaultTimeoutSeconds` (10 s) and
    /// `PasswordCommand.defaultOutputLimit` (64 KiB) of output; its process group is killed past either.
    private static func run(_ command: String) throws(AccountError) -> String {
        String(decoding: try PasswordCommand(command: command).run(), as: UTF8.self)
    }
}

extension String {
    fileprivate func dropPrefix(_ p: String) -> String? { hasPrefix(p) ? String(dropFirst(p.count)) : nil }
}
