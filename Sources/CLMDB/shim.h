#ifndef MAILSTORE_CLMDB_SHIM_H
#define MAILSTORE_CLMDB_SHIM_H
#include <fcntl.h>
#include <lmdb.h>

/* C macros that Swift cannot import, as static inline functions. */
static inline int mailstore_mdb_is_map_full(int rc) { return rc == MDB_MAP_FULL; }
static inline unsigned int mailstore_mdb_append(void) { return MDB_APPEND; }
static inline unsigned int mailstore_mdb_nooverwrite(void) { return MDB_NOOVERWRITE; }
/* O_DIRECT, which Glibc names only under _GNU_SOURCE; defining that here would change the system headers'
   structs under this module and clash with other modules' view of them. Glibc's own name for it, __O_DIRECT,
   is always there (its value differs between architectures); 0 (no O_DIRECT) where it is not. */
static inline int mailstore_o_direct(void) {
#ifdef __O_DIRECT
    return __O_DIRECT;
#else
    return 0;
#endif
}

/* A userfaultfd used only to turn off the kernel's fault-around on a map (see Environment.turnOffFaultAround):
   write-protect mode with asynchronous resolution (Linux 6.7+) may be registered on any shared file map, and a
   map so registered is faulted in one page at a time. Nothing is ever write-protected, so no fault ever waits
   on it. User-mode-only faults: allowed without privilege. Returns the descriptor, or -errno. */
#include <errno.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/userfaultfd.h>
#define MAILSTORE_UFFD_FEATURE_WP_ASYNC (1ULL << 15)
static inline int mailstore_uffd_open_wp_async(void) {
#ifdef SYS_userfaultfd
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (fd < 0) return -errno;
    struct uffdio_api api = { .api = UFFD_API, .features = MAILSTORE_UFFD_FEATURE_WP_ASYNC };
    int e = ioctl(fd, UFFDIO_API, &api) != 0 ? errno : (api.features & MAILSTORE_UFFD_FEATURE_WP_ASYNC) ? 0 : EOPNOTSUPP;
    if (e != 0) {
        close(fd);
        return -e;
    }
    return fd;
#else
    return -ENOSYS;
#endif
}

/* Registers [start, start + length) of a map with fd in write-protect mode. Returns 0 or -errno. */
static inline int mailstore_uffd_register_wp(int fd, uintptr_t start, uint64_t length) {
    struct uffdio_register r = { .range = { .start = start, .len = length }, .mode = UFFDIO_REGISTER_MODE_WP };
    return ioctl(fd, UFFDIO_REGISTER, &r) == 0 ? 0 : -errno;
}

/* Asks the CPU to bring [p, p + n) into its caches ahead of use (a read hint, kept in all cache levels): at most
   4 KiB, one hint per 64-byte line the range touches (the first line taken from its start, so a range that does
   not begin on a line still has its last line asked for). A hint never faults: an address not mapped is ignored. */
#include <stddef.h>
static inline void mailstore_prefetch(const void *p, size_t n) {
    if (n > 4096) n = 4096;
    uintptr_t end = (uintptr_t)p + n;
    for (uintptr_t a = (uintptr_t)p & ~(uintptr_t)63; a < end; a += 64) __builtin_prefetch((const void *)a, 0, 3);
}

#endif
