#ifndef MAILSTORE_CZSTD_SHIM_H
#define MAILSTORE_CZSTD_SHIM_H
#include <string.h>
#include <zstd.h>
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>

/* ZSTD_CONTENTSIZE_* are macros of unsigned long long casts Swift does not import. */
static inline unsigned long long mailstore_zstd_contentsize_unknown(void) { return ZSTD_CONTENTSIZE_UNKNOWN; }
static inline unsigned long long mailstore_zstd_contentsize_error(void) { return ZSTD_CONTENTSIZE_ERROR; }

/* zstd's fastCover trainer with fixed parameters: segments of k = 1,000 bytes scored by their 8-byte d-mers (f = 20,
   accel = 1), where ZDICT_trainFromBuffer searches four values of k and keeps the best. On 4 MB of generated mail the
   search took 0.19 s of CPU against 0.04 s, and the dictionaries stored mail no smaller: a 100K import's blobs 284.5
   MiB against 284.9; a real list's mbox 22.5 KiB against 17.4, notmuch's test mail 45.6 against 45.4 (`mailstore
   stats`; docs/benchmarks-history.md, 2026-12-04 night). One thread, one dictionary for given samples. */
static inline size_t mailstore_zdict_train(void *dict, size_t capacity, const void *samples, const size_t *sizes,
                                           unsigned count) {
    ZDICT_fastCover_params_t p;
    memset(&p, 0, sizeof p);
    p.k = 1000;
    p.d = 8;
    p.f = 20;
    p.accel = 1;
    p.zParams.compressionLevel = ZSTD_CLEVEL_DEFAULT;
    return ZDICT_trainFromBuffer_fastCover(dict, capacity, samples, sizes, count, p);
}

#endif
