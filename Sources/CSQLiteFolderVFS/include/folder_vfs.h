#ifndef MAILSTORE_FOLDER_VFS_H
#define MAILSTORE_FOLDER_VFS_H

#include <sqlite3.h>

/* A SQLite VFS per folder: the default VFS, except that the temporary files SQLite makes for a connection (the
   sorter's runs when an index is made, temporary tables and databases, statement journals) are made in that folder
   instead of the system's temporary one (SQLITE_TMPDIR, TMPDIR, /var/tmp): they hold keys of the store's mail, and
   stay beside it (on its disk, under its permissions). Like SQLite's own temporary files they are created mode 0600
   with O_EXCL and unlinked as soon as they are open, so nothing is left behind when the process dies.

   With a switch lock (a file's path), the main database files opened through the VFS are guarded against being
   renamed over while in use (a rebuilt file put in place of a live one): each transaction, from its first SHARED
   lock until its locks are all released, holds the switch lock shared, and whoever renames a new file into place
   holds it exclusively (`mailstore_sqlite_switch_gate`, `_take`). So no rollback journal is ever left by the path's
   old file while a connection to the new one looks for a hot journal (it would roll the old file's pages into the
   new one), and a connection whose file was renamed over since it opened it is refused its next transaction with
   SQLITE_READONLY_DBMOVED (it opens the path again). The locks are open file description locks on two bytes of the
   lock file (a gate, taken first by a rename, so that a stream of transactions cannot keep it out). A transaction
   waits up to 2 s for each, or less when its connection's waits end sooner (then SQLITE_BUSY, which the busy handler
   retries); a lock that fails otherwise is
   SQLITE_IOERR_LOCK, and a lock file that cannot be opened for another reason than a folder this process cannot
   write fails the open (SQLITE_CANTOPEN). */

/* Registers (once per folder and switch lock, for the life of the process) the VFS for `folder` guarded by
   `switchLock` (NULL: none) and writes its name into `name` (`capacity` bytes). Returns SQLITE_OK, SQLITE_MISUSE
   for a folder or lock whose path does not fit (4,000 bytes) or a name that does not fit `capacity`, or
   SQLITE_NOMEM. Thread-safe. */
int mailstore_sqlite_folder_vfs(const char *folder, const char *switchLock, char *name, int capacity);

/* Where the waits for the switch lock of the guarded files this thread opens next end: `*end` (CLOCK_MONOTONIC
   nanoseconds, read at each wait; 0 there, or NULL here: none), so that each wait (up to 2 s) ends there when that
   comes first (a search's time limit). Set just before `sqlite3_open_v2` and back to NULL after it; `end` is the
   connection's own and must outlive its files. */
void mailstore_sqlite_folder_vfs_waits_end(const unsigned long long *end);

/* Whether the main database file of `db`, opened through a VFS with a switch lock, was renamed over since it was
   opened (0 for a connection without the guard). Read after a failure: SQLite does not pass on the guard's
   SQLITE_READONLY_DBMOVED from every path (FTS5's table constructor reports "vtable constructor failed"). */
int mailstore_sqlite_file_moved(sqlite3 *db);

/* For a rename into place: opens (creating it 0600) the switch lock at `path` and takes its gate exclusively, waiting up
   to `waitMs`; new transactions then wait. Returns the descriptor, or -1 with `*rc` SQLITE_CANTOPEN, SQLITE_BUSY or
   SQLITE_IOERR_LOCK. */
int mailstore_sqlite_switch_gate(const char *path, int waitMs, int *rc);

/* Takes the switch lock exclusively on a descriptor from `mailstore_sqlite_switch_gate`, waiting up to `waitMs` for
   the transactions under way to end: SQLITE_OK, SQLITE_BUSY (call again to wait longer) or SQLITE_IOERR_LOCK. */
int mailstore_sqlite_switch_take(int fd, int waitMs);

/* Releases what `mailstore_sqlite_switch_gate` and `_take` took, and closes the descriptor (nothing for -1). */
void mailstore_sqlite_switch_release(int fd);

#endif
