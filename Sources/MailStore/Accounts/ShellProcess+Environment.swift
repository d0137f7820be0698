import Foundation
import Glibc
import Synchronization

extension ShellProcess {
    /// The names of the environment variables no command gets (``withhold(_:)``).
    private static let withheld = Mutex<Set<String>>([])

    /// Keeps the variables `names` out of the environment of every command this process starts from now on: the
    /// variables accounts read their secret from (`env:VAR`, ``CredentialSource/environment(_:)``). Every command had
    /// got them, each account's secret reaching every notify, withdraw and password command. No command needs one: a
    /// password command is an account's other way to give its secret, and a notify command gets the notification.
    package static func withhold(_ names: some Sequence<String>) {
        withheld.withLock { $0.formUnion(names) }
    }

    /// This process's environment without the withheld variables, as `execve` takes it: copies (`strdup`) the caller
    /// frees, then a nil.
    static func childEnvironment() -> [UnsafeMutablePointer<CChar>?] {
        let names = withheld.withLock { $0 }
        var out: [UnsafeMutablePointer<CChar>?] = []
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = text.firstIndex(of: "=").map { String(text[..<$0]) } ?? text
            if !names.contains(name) { out.append(strdup(entry)) }
            p += 1
        }
        out.append(nil)
        return out
    }

    /// This process's environment without the withheld variables, for a `Process` (`Process.environment`).
    package static func childEnvironmentDictionary() -> [String: String] {
        let names = withheld.withLock { $0 }
        return ProcessInfo.processInfo.environment.filter { !names.contains($0.key) }
    }
}
