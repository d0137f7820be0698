#ifndef MAILSTORE_CSQLITE_SHIM_H
#define MAILSTORE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* C macros that Swift cannot import, as static inline functions. */

/* SQLITE_TRANSIENT is ((sqlite3_destructor_type)-1): SQLite copies the bound text/blob before returning. */
static inline sqlite3_destructor_type mailstore_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
