import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a TLS context finds the system's trusted CA certificates.
///
/// OpenSSL's default (`SSL_CTX_set_default_verify_paths`) reads and parses the whole bundle file (Debian's
/// `/etc/ssl/certs/ca-certificates.crt`, ~140 certificates) for every context: 35 ms on this machine, a third of a
/// `mailstore sync` that finds nothing new (2026-12-01). The hashed directory (`/etc/ssl/certs`, each certificate
/// linked under its subject's hash by `update-ca-certificates` or `openssl rehash`) holds the same certificates and is
/// read lazily: a handshake loads the few issuers it looks up (0.01 ms to set up). So the directory is used when it has
/// such links; otherwise, or when `SSL_CERT_FILE` or `SSL_CERT_DIR` names another bundle or directory than the
/// system's, OpenSSL's default paths as before.
package enum SystemTrust: Equatable, Sendable {
    /// The hashed directory, read lazily.
    case directory(String)
    /// OpenSSL's default paths: the bundle file (or `SSL_CERT_FILE`) read whole, and the directory.
    case defaultPaths

    /// The most directory entries looked at for a hashed link (a directory of this many names without one is not
    /// a hashed directory).
    static let maxEntriesLooked = 10_000

    /// The system trust of this process (its environment read once).
    static let current = locate(environment: { name in getenv(name).map { String(cString: $0) } })

    /// The system trust for an environment (`environment(name)`: the variable's value, or nil), `directory` being
    /// OpenSSL's default directory (tests name another).
    ///
    /// Where `SSL_CERT_FILE` or `SSL_CERT_DIR` names something other than the system's own bundle or directory,
    /// OpenSSL's default paths read them as they always did (a private directory in `SSL_CERT_DIR` adds to the
    /// system's bundle there, and must not replace it); an environment that names the defaults explicitly (as this
    /// machine's does) is the default.
    package static func locate(environment: (String) -> String?, directory: String = systemDirectory) -> SystemTrust {
        let fileVariable = String(cString: X509_get_default_cert_file_env())
        if let file = environment(fileVariable), !file.isEmpty, canonical(file) != canonical(systemBundle) {
            return .defaultPaths
        }
        let dirVariable = String(cString: X509_get_default_cert_dir_env())
        if let dir = environment(dirVariable), !dir.isEmpty, canonical(dir) != canonical(directory) {
            return .defaultPaths
        }
        guard hasHashedLinks(directory) else { return .defaultPaths }
        return .directory(directory)
    }

    /// The directory OpenSSL looks in by default (Debian: `/usr/lib/ssl/certs`, a link to `/etc/ssl/certs`).
    package static var systemDirectory: String { String(cString: X509_get_default_cert_dir()) }

    /// The bundle file OpenSSL reads by default (Debian: `/usr/lib/ssl/cert.pem`, a link to
    /// `/etc/ssl/certs/ca-certificates.crt`).
    static var systemBundle: String { String(cString: X509_get_default_cert_file()) }

    /// `path` with its links resolved, or as it is when that fails.
    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `dir` holds an entry named as `openssl rehash` names them (`0123abcd.0`), among its first
    /// `maxEntriesLooked`.
    static func hasHashedLinks(_ dir: String) -> Bool { hashedLink(in: dir, most: maxEntriesLooked).found }

    /// Whether a hashed link is among the first `most` entries of `dir`, and how many entries were looked at.
    static func hashedLink(in dir: String, most: Int) -> (found: Bool, looked: Int) {
        guard let d = opendir(dir) else { return (false, 0) }
        defer { closedir(d) }
        var looked = 0
        while looked < most, let entry = readdir(d) {
            looked += 1
            // The name read where it lies: `entry.pointee.d_name` copies 256 bytes, past a short last entry's end.
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                .assumingMemoryBound(to: CChar.self))
            if isHashedName(name) { return (true, looked) }
        }
        return (false, looked)
    }

    /// Whether `name` is a subject-hash link's name: eight lowercase hex digits, a dot, a decimal suffix.
    static func isHashedName(_ name: String) -> Bool {
        let b = Array(name.utf8)
        guard b.count >= 10, b.count <= 14, b[8] == UInt8(ascii: ".") else { return false }
        let hex = b[0..<8].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        return hex && b[9...].allSatisfy { (0x30...0x39).contains($0) }
    }
}
