#ifndef MAILSTORE_CLMDB_SHIM_H
#define MAILSTORE_CLMDB_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_DIRECT */
#endif
#include <fcntl.h>
#include <lmdb.h>

/* C macros that Swift cannot import, as static inline functions. */
static inline int mailstore_mdb_is_map_full(int rc) { return rc == MDB_MAP_FULL; }
static inline unsigned int mailstore_mdb_append(void) { return MDB_APPEND; }
static inline unsigned int mailstore_mdb_nooverwrite(void) { return MDB_NOOVERWRITE; }
/* O_DIRECT, which Glibc declares only under _GNU_SOURCE (its value differs between architectures). */
static inline int mailstore_o_direct(void) { return O_DIRECT; }

#endif
