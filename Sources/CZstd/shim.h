#ifndef MAILSTORE_CZSTD_SHIM_H
#define MAILSTORE_CZSTD_SHIM_H
#include <zstd.h>
#include <zdict.h>

/* ZSTD_CONTENTSIZE_* are macros of unsigned long long casts Swift does not import. */
static inline unsigned long long mailstore_zstd_contentsize_unknown(void) { return ZSTD_CONTENTSIZE_UNKNOWN; }
static inline unsigned long long mailstore_zstd_contentsize_error(void) { return ZSTD_CONTENTSIZE_ERROR; }

#endif
