#ifndef MAILSTORE_FOLDER_VFS_H
#define MAILSTORE_FOLDER_VFS_H

/* A SQLite VFS per folder: the default VFS, except that the temporary files SQLite makes for a connection (the
   sorter's runs when an index is made, temporary tables and databases, statement journals) are made in that folder
   instead of the system's temporary one (SQLITE_TMPDIR, TMPDIR, /var/tmp): they hold keys of the store's mail, and
   stay beside it (on its disk, under its permissions). Like SQLite's own temporary files they are created mode 0600
   with O_EXCL and unlinked as soon as they are open, so nothing is left behind when the process dies. */

/* Registers (once per folder, for the life of the process) the VFS for `folder` and writes its name into `name`
   (`capacity` bytes). Returns SQLITE_OK, SQLITE_MISUSE for a folder whose path does not fit (4,000 bytes) or
   a name that does not fit `capacity`, or SQLITE_NOMEM. Thread-safe. */
int mailstore_sqlite_folder_vfs(const char *folder, char *name, int capacity);

#endif
