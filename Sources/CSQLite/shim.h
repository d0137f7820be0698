#ifndef MAILSTORE_CSQLITE_SHIM_H
#define MAILSTORE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* C macros that Swift cannot import, as static inline functions. */

/* SQLITE_TRANSIENT is ((sqlite3_destructor_type)-1): SQLite copies the bound text/blob before returning. */
static inline sqlite3_destructor_type mailstore_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* A progress handler counting down *left (one per call, every N instructions): at zero it interrupts the
   running statement (SQLITE_INTERRUPT). */
static int mailstore_sqlite_countdown(void *left) { return --*(long long *)left < 0; }
static inline void mailstore_sqlite_limit(sqlite3 *db, int every, long long *left) {
    if (left) sqlite3_progress_handler(db, every, mailstore_sqlite_countdown, left);
    else sqlite3_progress_handler(db, 0, 0, 0);
}

#endif
