#ifndef MAILSTORE_CZSTD_SHIM_H
#define MAILSTORE_CZSTD_SHIM_H
#include <string.h>
#include <zstd.h>
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>

/* ZSTD_CONTENTSIZE_* are macros of unsigned long long casts Swift does not import. */
static inline unsigned long long mailstore_zstd_contentsize_unknown(void) { return ZSTD_CONTENTSIZE_UNKNOWN; }
static inline unsigned long long mailstore_zstd_contentsize_error(void) { return ZSTD_CONTENTSIZE_ERROR; }

/* What ZDICT_trainFromBuffer does (zstd 1.5: fastCover with d = 8, 4 steps of k, the default level), with the
   candidate parameters tried on `threads` threads. Same search, same scores: the best candidate is the same
   dictionary (a tie between two candidates may be settled by which finishes first). */
static inline size_t mailstore_zdict_train(void *dict, size_t capacity, const void *samples, const size_t *sizes,
                                           unsigned count, unsigned threads) {
    ZDICT_fastCover_params_t p;
    memset(&p, 0, sizeof p);
    p.d = 8;
    p.steps = 4;
    p.nbThreads = threads;
    p.zParams.compressionLevel = ZSTD_CLEVEL_DEFAULT;
    return ZDICT_optimizeTrainFromBuffer_fastCover(dict, capacity, samples, sizes, count, &p);
}

#endif
