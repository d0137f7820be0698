// machine-probe: what this machine charges for memory the kernel has not used lately, for `bench` and by hand.
//
// Why: on the Firecracker VMs this project is measured on (virtio_balloon with free page reporting), the host takes
// back guest memory that has stayed free for ~20 s, and the first touch of such a page costs ~50-60 us (a fault
// into the host) against ~2.5 us for a page freed moments ago. The page cache grows from that same free memory, so
// writing a new file, or an LMDB map growing into new pages, goes at the pace of those first touches, not the
// disk's: 2 GB into a new file took 30 s (72 MB/s), and 1.8 s when the written pages were handed back every 64 MB
// (sync_file_range + POSIX_FADV_DONTNEED) and so reused hot. A run's figures are read beside this probe's.
//
// It measures, in this order (each step's pages are fresh to it, the last one's are not):
//     write   MiB written into a new file in DIR with plain write(2)s, kept in the page cache   (us per 4 KiB page)
//     cold    MiB of new anonymous memory touched once                                          (us per page)
//     warm    the same again, right after the cold pages were unmapped (recently used memory)   (us per page)
// and prints one line:  "write <us> cold <us> warm <us> mib <N>". The file is removed before it ends.
//
// Usage: machine-probe [DIR] [MIB]      DIR: where to write (default .), MIB: 1 to 4096 (default 256)

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/// Touches every page of `bytes` of new anonymous memory once; returns the seconds it took, or -1.
static double touch(size_t bytes, long page) {
    unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    // 4 KiB faults, as the page cache's are, even where transparent huge pages are on for every mapping.
    (void)madvise(p, bytes, MADV_NOHUGEPAGE);
    double start = now();
    for (size_t i = 0; i < bytes; i += (size_t)page) p[i] = 1;
    double took = now() - start;
    munmap(p, bytes);
    return took;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    long mib = 256;
    if (argc > 2) {
        char *end = NULL;
        errno = 0;
        mib = strtol(argv[2], &end, 10);
        if (errno != 0 || end == argv[2] || *end != '\0' || mib < 1 || mib > 4096) {
            fprintf(stderr, "machine-probe: MIB must be a whole number from 1 to 4096, not '%s'\n", argv[2]);
            return 64;
        }
    }
    if (argc > 3) {
        fprintf(stderr, "usage: machine-probe [DIR] [MIB]\n");
        return 64;
    }
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) page = 4096;
    size_t bytes = (size_t)mib << 20;
    double pages = (double)bytes / (double)page;

    char path[4096];
    if (snprintf(path, sizeof path, "%s/machine-probe-XXXXXX", dir) >= (int)sizeof path) {
        fprintf(stderr, "machine-probe: the folder's path is too long\n");
        return 64;
    }
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "machine-probe: cannot create a file in %s: %s\n", dir, strerror(errno));
        return 73;
    }
    static unsigned char chunk[1 << 20];
    memset(chunk, 0x5a, sizeof chunk);
    double start = now();
    int failed = 0;
    for (long i = 0; i < mib && !failed; i++) {
        size_t done = 0;
        while (done < sizeof chunk) {
            ssize_t n = write(fd, chunk + done, sizeof chunk - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) { failed = 1; break; }
            done += (size_t)n;
        }
    }
    double wrote = now() - start;
    int saved = errno;
    double cold = failed ? -1 : touch(bytes, page);
    double warm = failed ? -1 : touch(bytes, page);
    close(fd);
    unlink(path);
    if (failed) {
        fprintf(stderr, "machine-probe: writing %s failed: %s\n", path, strerror(saved));
        return 74;
    }
    if (cold < 0 || warm < 0) {
        fprintf(stderr, "machine-probe: cannot map %ld MiB of memory\n", mib);
        return 71;
    }
    printf("write %.2f cold %.2f warm %.2f mib %ld\n", wrote * 1e6 / pages, cold * 1e6 / pages, warm * 1e6 / pages, mib);
    return 0;
}
