import Glibc
import Synchronization

/// A message file the Maildir listing opened (to ask it into the page cache) and hands on to the parse worker that
/// reads it, which then neither walks its path nor opens it again: the descriptor is closed when the last copy of its
/// `SourceMessage` goes, once its chunk is done.
///
/// Bound: at most `limit` are open at once in the process (a quarter of the soft `RLIMIT_NOFILE`, at most 4,096; a
/// listing runs one chunk of at most `Importer.Options.batchMessages` ahead, so ~2-3 chunks are open); past it,
/// `adopt` returns nil and the listing closes its descriptor as before, the worker opening the file by its path.
final class OpenedFile: Sendable {
    /// The descriptor, opened read-only, non-blocking (a name that stopped being a file cannot hang a reader) and
    /// close-on-exec.
    let fd: Int32

    /// Files open now.
    private static let open = Atomic<Int>(0)

    /// The most open at once (see the type's comment).
    static let limit: Int = {
        var r = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &r) == 0 else { return 256 }
        let soft = r.rlim_cur == rlim_t.max ? 1 << 20 : Int(clamping: r.rlim_cur)
        return max(0, min(4_096, soft / 4))
    }()

    /// How many are open now (tests).
    static var count: Int { open.load(ordering: .relaxed) }

    private init(fd: Int32) { self.fd = fd }

    /// Takes `fd` over (closing it at the end) when fewer than `limit` files are open; nil otherwise, the caller
    /// keeping `fd`.
    static func adopt(_ fd: Int32, limit: Int = OpenedFile.limit) -> OpenedFile? {
        guard fd >= 0 else { return nil }
        let before = open.add(1, ordering: .relaxed).oldValue
        guard before < limit else {
            open.subtract(1, ordering: .relaxed)
            return nil
        }
        return OpenedFile(fd: fd)
    }

    deinit {
        close(fd)
        OpenedFile.open.subtract(1, ordering: .relaxed)
    }
}
