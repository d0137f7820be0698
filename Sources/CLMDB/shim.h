#ifndef MAILSTORE_CLMDB_SHIM_H
#define MAILSTORE_CLMDB_SHIM_H
#include <lmdb.h>

/* C macros that Swift cannot import, as static inline functions. */
static inline int mailstore_mdb_is_map_full(int rc) { return rc == MDB_MAP_FULL; }
static inline unsigned int mailstore_mdb_append(void) { return MDB_APPEND; }
static inline unsigned int mailstore_mdb_nooverwrite(void) { return MDB_NOOVERWRITE; }

#endif
