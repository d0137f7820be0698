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
   lock until its locks are all released, holds the switch lock shared (`flock`), and whoever renames a new file into
   place holds it exclusively. So no rollback journal is ever left by the path's old file while a connection to the
   new one looks for a hot journal (it would roll the old file's pages into the new one), and a connection whose file
   was renamed over since it opened it is refused its next transaction with SQLITE_READONLY_DBMOVED (it opens the
   path again). A transaction waits up to 2 s for the lock (then SQLITE_BUSY, which the busy handler retries). */

/* Registers (once per folder and switch lock, for the life of the process) the VFS for `folder` guarded by
   `switchLock` (NULL: none) and writes its name into `name` (`capacity` bytes). Returns SQLITE_OK, SQLITE_MISUSE
   for a folder or lock whose path does not fit (4,000 bytes) or a name that does not fit `capacity`, or
   SQLITE_NOMEM. Thread-safe. */
int mailstore_sqlite_folder_vfs(const char *folder, const char *switchLock, char *name, int capacity);

/* Whether the main database file of `db`, opened through a VFS with a switch lock, was renamed over since it was
   opened (0 for a connection without the guard). Read after a failure: SQLite does not pass on the guard's
   SQLITE_READONLY_DBMOVED from every path (FTS5's table constructor reports "vtable constructor failed"). */
int mailstore_sqlite_file_moved(sqlite3 *db);

#endif
