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

#endif
