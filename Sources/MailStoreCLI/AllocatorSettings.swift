import CMalloc
import Glibc

/// How the `mailstore` process sets glibc's allocator before it runs a command: every allocation of
/// `mmapThreshold` bytes or more is mapped on its own and given back when freed, and the heap's free top is
/// given back past `trimThreshold`.
///
/// Why: glibc moves its threshold for mapping a block on its own up to the size of the biggest mapped block freed
/// (up to 32 MiB), and its threshold for giving the heap's free top back to twice that. A long fold frees buffers
/// of several MiB (a table's encoded changes, the spilled runs' index when it doubles), so after the first ones
/// such buffers came from the heap and their room stayed resident: a 1M-message `replay` peaked at 176.0 MiB with
/// these settings against 196.9 MiB without (131.5 s against 128.6 s, alternated), and at 100K `replay` and `import`
/// ran as fast either way (2026-12-02, docs/operations.md "Memory while folding").
///
/// A process whose `GLIBC_TUNABLES` sets any of glibc's malloc tunables keeps its own settings. The library does
/// not call this: an application embedding it sets its allocator as it sees fit.
package enum AllocatorSettings {
    /// Blocks of this many bytes or more are mapped on their own.
    package static let mmapThreshold: Int32 = 1 << 20
    /// The heap's free top past this many bytes is given back.
    package static let trimThreshold: Int32 = 4 << 20

    /// Whether `apply` sets the allocator in a process with `environment`: not when `GLIBC_TUNABLES` names a malloc
    /// tunable.
    package static func applies(environment: [String: String]) -> Bool {
        !(environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") ?? false)
    }

    /// Sets the thresholds (once, before the command runs). Returns whether glibc took both.
    @discardableResult
    package static func apply() -> Bool {
        mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, trimThreshold) == 1
    }
}
