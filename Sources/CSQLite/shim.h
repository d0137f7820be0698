#ifndef MAILSTORE_CSQLITE_SHIM_H
#define MAILSTORE_CSQLITE_SHIM_H
#include <sqlite3.h>
#include <time.h>

/* C macros that Swift cannot import, as static inline functions. */

/* SQLITE_TRANSIENT is ((sqlite3_destructor_type)-1): SQLite copies the bound text/blob before returning. */
static inline sqlite3_destructor_type mailstore_sqlite_transient(void) { return SQLITE_TRANSIENT; }
/* SQLITE_READONLY_DBMOVED (a macro Swift does not import): a database file renamed over since it was opened. */
static inline int mailstore_sqlite_dbmoved(void) { return SQLITE_READONLY_DBMOVED; }

/* The limits a connection's progress handler checks (every N virtual machine instructions): a count of checks
   left, while `counting`, and two times on CLOCK_MONOTONIC in nanoseconds (0: none): the statement budget's and
   the search's deadline. Past any of them it interrupts the running statement (SQLITE_INTERRUPT). */
typedef struct {
    long long left;
    int counting;
    unsigned long long budget_end;
    unsigned long long deadline;
} mailstore_sqlite_limits;

/* CLOCK_MONOTONIC in nanoseconds: the clock the limits are on. */
static inline unsigned long long mailstore_monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static int mailstore_sqlite_check(void *p) {
    mailstore_sqlite_limits *l = (mailstore_sqlite_limits *)p;
    if (l->counting && --l->left < 0) return 1;
    if (l->budget_end || l->deadline) {
        unsigned long long now = mailstore_monotonic_ns();
        if (l->budget_end && now >= l->budget_end) return 1;
        if (l->deadline && now >= l->deadline) return 1;
    }
    return 0;
}

/* A busy handler whose waits end at `*(unsigned long long *)p` (CLOCK_MONOTONIC nanoseconds): the lock tried again
   after a sleep of 1 ms, growing to 10 ms, until then; SQLITE_BUSY after. */
static int mailstore_sqlite_busy_until(void *p, int count) {
    unsigned long long end = *(const unsigned long long *)p;
    unsigned long long now = mailstore_monotonic_ns();
    if (end == 0 || now >= end) return 0;
    unsigned long long step = (unsigned long long)(count < 9 ? count + 1 : 10) * 1000000ULL;
    if (step > end - now) step = end - now;
    struct timespec t = {(time_t)(step / 1000000000ULL), (long)(step % 1000000000ULL)};
    nanosleep(&t, NULL);
    return 1;
}

/* Bounds `db`'s waits for a lock: until `*end` when it is set (not 0; `mailstore_sqlite_busy_until`), else SQLite's
   busy timeout of `timeoutMs`. Called again whenever `*end` changes between 0 and a time. */
static inline void mailstore_sqlite_waits(sqlite3 *db, const unsigned long long *end, int timeoutMs) {
    if (end && *end) sqlite3_busy_handler(db, mailstore_sqlite_busy_until, (void *)end);
    else sqlite3_busy_timeout(db, timeoutMs);
}

/* Installs the handler over `limits` every `every` instructions (0 or NULL: removes it). */
static inline void mailstore_sqlite_watch(sqlite3 *db, int every, mailstore_sqlite_limits *limits) {
    if (limits && every > 0) sqlite3_progress_handler(db, every, mailstore_sqlite_check, limits);
    else sqlite3_progress_handler(db, 0, 0, 0);
}

#endif
