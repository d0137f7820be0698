#define _GNU_SOURCE /* F_OFD_SETLK */
#include "folder_vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

/* The longest folder path accepted: its temporary files' names must fit the default VFS's `mxPathname`
   (512 on Unix) too, which `xOpen` checks. */
#define MAX_FOLDER 4000

/* One folder's VFS: a copy of the default VFS whose `xOpen` names the temporary files, and, with a switch lock,
   guards the main database files it opens (see the header). */
typedef struct FolderVfs {
    sqlite3_vfs base;
    sqlite3_vfs *real;
    struct FolderVfs *next;
    char folder[MAX_FOLDER + 1];
    /* The switch lock's path ("" for none). */
    char switchLock[MAX_FOLDER + 64];
    char name[2 * MAX_FOLDER + 128];
} FolderVfs;

/* What this VFS keeps after the default VFS's file object: the methods it set, the name it was given to a
   temporary file (freed when the file is closed; the default VFS keeps a pointer to it while the file is open),
   and for a guarded main database file its switch lock and the file it opened. */
typedef struct Extra {
    const sqlite3_io_methods *real;
    char *name;
    /* A guarded file: the switch lock's descriptor (-1: not guarded), whether this file holds it shared, and the
       path (SQLite's, valid while the file is open), device and inode it was opened at. */
    int switchFd;
    int holding;
    const char *path;
    dev_t dev;
    ino_t ino;
    /* Where its connection's waits end (`mailstore_sqlite_folder_vfs_waits_end`; NULL or 0 there: none). */
    const unsigned long long *waitEnd;
} Extra;

/* A default VFS's methods with `xClose` replaced, and for guarded files `xLock` and `xUnlock` too: one per methods
   table seen and kind (the Unix VFS has a handful). */
typedef struct Wrapped {
    const sqlite3_io_methods *real;
    int guarded;
    sqlite3_io_methods wrapped;
} Wrapped;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FolderVfs *registered = NULL;
#define MAX_WRAPPED 16
static Wrapped wrapped[MAX_WRAPPED];
static int wrappedCount = 0;
/* Where `Extra` starts in a file object: after the default VFS's, aligned (every folder VFS wraps the same one). */
static int extraOffset = 0;
/* The calling thread's connection being opened: where its waits end (`mailstore_sqlite_folder_vfs_waits_end`). */
static __thread const unsigned long long *openingWaitEnd = NULL;

static Extra *extraOf(sqlite3_file *file) { return (Extra *)((char *)file + extraOffset); }

/* The longest a guarded file waits for the switch lock before SQLite is told SQLITE_BUSY (its busy handler then
   tries again, within the connection's busy timeout): the lock is held exclusively only for a rename, and its gate
   while a rename waits for the transactions under way. */
#define SWITCH_WAIT_MS 2000

/* The switch lock file's two bytes, locked with open file description locks (`F_OFD_SETLK`: owned by the open file,
   not the process, so two connections of one process exclude each other, on NFS too): a transaction holds SWITCH_BYTE
   shared; a rename holds it exclusively. GATE_BYTE is what SQLite's PENDING lock is to its SHARED: a transaction takes
   it shared only to get SWITCH_BYTE, and a rename takes it exclusively first, so that transactions starting one
   after another cannot keep the rename out for ever. */
#define GATE_BYTE 0
#define SWITCH_BYTE 1

static long long nowMs(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A lock of `type` (F_RDLCK, F_WRLCK, F_UNLCK) on the one byte at `byte` (l_pid 0, as open file description locks need). */
static struct flock oneByte(short type, off_t byte) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = byte;
    fl.l_len = 1;
    return fl;
}

/* Locks `byte` of `fd` (F_RDLCK or F_WRLCK), waiting up to `waitMs` (measured, not counted in tries): SQLITE_OK,
   SQLITE_BUSY when it is still held by another after that, SQLITE_IOERR_LOCK when locking fails otherwise. */
static int lockByte(int fd, short type, off_t byte, int waitMs) {
    long long end = nowMs() + waitMs;
    for (;;) {
        struct flock fl = oneByte(type, byte);
        if (fcntl(fd, F_OFD_SETLK, &fl) == 0) return SQLITE_OK;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EACCES) return SQLITE_IOERR_LOCK;
        if (nowMs() >= end) return SQLITE_BUSY;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

static void unlockByte(int fd, off_t byte) {
    struct flock fl = oneByte(F_UNLCK, byte);
    while (fcntl(fd, F_OFD_SETLK, &fl) != 0 && errno == EINTR) {}
}

/* How long a guarded file waits for one of the switch lock's bytes: SWITCH_WAIT_MS, or less when its connection's
   waits end sooner (`end`, CLOCK_MONOTONIC nanoseconds; NULL or 0: none), 0 once they have ended (one try). */
static int sharedWaitMs(const unsigned long long *end) {
    unsigned long long until = end ? *end : 0;
    if (until == 0) return SWITCH_WAIT_MS;
    long long now = nowMs(), endMs = (long long)(until / 1000000ULL);
    if (now >= endMs) return 0;
    return endMs - now < SWITCH_WAIT_MS ? (int)(endMs - now) : SWITCH_WAIT_MS;
}

/* Takes `fd`'s switch byte shared through its gate, waiting up to SWITCH_WAIT_MS for each, and no longer than `end`. */
static int takeShared(int fd, const unsigned long long *end) {
    int rc = lockByte(fd, F_RDLCK, GATE_BYTE, sharedWaitMs(end));
    if (rc != SQLITE_OK) return rc;
    rc = lockByte(fd, F_RDLCK, SWITCH_BYTE, sharedWaitMs(end));
    unlockByte(fd, GATE_BYTE);
    return rc;
}

static void releaseSwitch(Extra *x) {
    if (x->switchFd >= 0 && x->holding) unlockByte(x->switchFd, SWITCH_BYTE);
    x->holding = 0;
}

/* Whether the guarded file's path still names the file it opened. */
static int stillAtPath(const Extra *x) {
    struct stat st;
    return stat(x->path, &st) == 0 && st.st_dev == x->dev && st.st_ino == x->ino;
}

static int folderClose(sqlite3_file *file) {
    Extra *x = extraOf(file);
    const sqlite3_io_methods *real = x->real;
    char *name = x->name;
    file->pMethods = real;
    int rc = real->xClose(file);
    releaseSwitch(x);
    if (x->switchFd >= 0) close(x->switchFd);
    x->switchFd = -1;
    x->real = NULL;
    x->name = NULL;
    sqlite3_free(name);
    return rc;
}

/* A guarded file's first lock of a transaction (SHARED, from none) takes the switch lock shared, then checks that
   the file is still the one at its path: one renamed over since it was opened is refused with
   SQLITE_READONLY_DBMOVED (the caller opens the path again). */
static int guardedLock(sqlite3_file *file, int level) {
    Extra *x = extraOf(file);
    int took = 0;
    if (level == SQLITE_LOCK_SHARED && x->switchFd >= 0 && !x->holding) {
        int rc = takeShared(x->switchFd, x->waitEnd);
        if (rc != SQLITE_OK) return rc;
        x->holding = 1;
        took = 1;
        if (!stillAtPath(x)) {
            releaseSwitch(x);
            return SQLITE_READONLY_DBMOVED;
        }
    }
    int rc = x->real->xLock(file, level);
    if (rc != SQLITE_OK && took) releaseSwitch(x);
    return rc;
}

/* Releases the switch lock with the file's last lock. */
static int guardedUnlock(sqlite3_file *file, int level) {
    Extra *x = extraOf(file);
    int rc = x->real->xUnlock(file, level);
    if (level == SQLITE_LOCK_NONE) releaseSwitch(x);
    return rc;
}

/* The methods table wrapping `real` (with the guard's methods when `guarded`), or NULL when MAX_WRAPPED tables
   were seen already. */
static const sqlite3_io_methods *wrapping(const sqlite3_io_methods *real, int guarded) {
    const sqlite3_io_methods *found = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < wrappedCount && !found; i++) {
        if (wrapped[i].real == real && wrapped[i].guarded == guarded) found = &wrapped[i].wrapped;
    }
    if (!found && wrappedCount < MAX_WRAPPED) {
        wrapped[wrappedCount].real = real;
        wrapped[wrappedCount].guarded = guarded;
        wrapped[wrappedCount].wrapped = *real;
        wrapped[wrappedCount].wrapped.xClose = folderClose;
        if (guarded) {
            wrapped[wrappedCount].wrapped.xLock = guardedLock;
            wrapped[wrappedCount].wrapped.xUnlock = guardedUnlock;
        }
        found = &wrapped[wrappedCount].wrapped;
        wrappedCount++;
    }
    pthread_mutex_unlock(&lock);
    return found;
}

/* Opens a main database file guarded by `f`'s switch lock: the file is opened and its identity read while the lock
   is held shared, so no rename comes between them. Without the lock file (a folder that cannot be written and has
   none) the file is opened unguarded: no process can rename over it either. */
static int openGuarded(FolderVfs *f, const char *zName, sqlite3_file *file, int flags, int *outFlags) {
    Extra *x = extraOf(file);
    int fd = open(f->switchLock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 && errno != ELOOP) fd = open(f->switchLock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        /* A folder this process cannot write (a read-only store): it cannot rename over the file either, and opens
           it unguarded. Any other failure (out of descriptors) is not a reason to go without the lock. */
        if (errno != EROFS && errno != EACCES && errno != ENOENT) return SQLITE_CANTOPEN;
        return f->real->xOpen(f->real, zName, file, flags, outFlags);
    }
    x->switchFd = fd;
    x->path = zName;
    x->waitEnd = openingWaitEnd;
    int rc = takeShared(fd, x->waitEnd);
    if (rc != SQLITE_OK) {
        close(fd);
        x->switchFd = -1;
        return rc;
    }
    x->holding = 1;
    rc = f->real->xOpen(f->real, zName, file, flags, outFlags);
    struct stat st;
    if (rc == SQLITE_OK) {
        /* Read under the lock: no rename comes between the open and this. */
        if (stat(zName, &st) == 0) {
            x->dev = st.st_dev;
            x->ino = st.st_ino;
        } else {
            rc = SQLITE_CANTOPEN;
        }
    }
    releaseSwitch(x);
    const sqlite3_io_methods *methods = file->pMethods ? wrapping(file->pMethods, 1) : NULL;
    if (methods == NULL) {
        if (file->pMethods) file->pMethods->xClose(file);
        file->pMethods = NULL;
        close(fd);
        x->switchFd = -1;
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    x->real = file->pMethods;
    file->pMethods = methods;
    return rc;
}

int mailstore_sqlite_switch_gate(const char *path, int waitMs, int *rc) {
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        *rc = SQLITE_CANTOPEN;
        return -1;
    }
    *rc = lockByte(fd, F_WRLCK, GATE_BYTE, waitMs);
    if (*rc != SQLITE_OK) {
        close(fd);
        return -1;
    }
    return fd;
}

int mailstore_sqlite_switch_take(int fd, int waitMs) { return lockByte(fd, F_WRLCK, SWITCH_BYTE, waitMs); }

void mailstore_sqlite_switch_release(int fd) {
    if (fd < 0) return;
    unlockByte(fd, SWITCH_BYTE);
    unlockByte(fd, GATE_BYTE);
    close(fd);
}

static int folderOpen(sqlite3_vfs *vfs, const char *zName, sqlite3_file *file, int flags, int *outFlags) {
    FolderVfs *f = (FolderVfs *)vfs;
    Extra *x = extraOf(file);
    x->real = NULL;
    x->name = NULL;
    x->switchFd = -1;
    x->holding = 0;
    x->waitEnd = NULL;
    if (zName != NULL && f->switchLock[0] != 0 && (flags & SQLITE_OPEN_MAIN_DB)) return openGuarded(f, zName, file, flags, outFlags);
    if (zName != NULL) return f->real->xOpen(f->real, zName, file, flags, outFlags);
    /* A temporary file (SQLite passes no name and deletes it on close): named in the folder, made with O_EXCL. */
    size_t size = strlen(f->folder) + 32;
    if (size > (size_t)f->real->mxPathname) return SQLITE_CANTOPEN;
    char *name = sqlite3_malloc((int)size);
    if (name == NULL) return SQLITE_IOERR_NOMEM;
    sqlite3_uint64 r;
    sqlite3_randomness(sizeof r, &r);
    snprintf(name, size, "%s/.sqlite-tmp-%016llx", f->folder, (unsigned long long)r);
    int rc = f->real->xOpen(f->real, name, file, flags | SQLITE_OPEN_EXCLUSIVE | SQLITE_OPEN_DELETEONCLOSE | SQLITE_OPEN_CREATE,
                            outFlags);
    /* SQLite calls xClose when pMethods is set, even after a failed open. */
    const sqlite3_io_methods *methods = file->pMethods ? wrapping(file->pMethods, 0) : NULL;
    if (methods == NULL) {
        if (file->pMethods) file->pMethods->xClose(file);
        file->pMethods = NULL;
        sqlite3_free(name);
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    x->real = file->pMethods;
    x->name = name;
    file->pMethods = methods;
    return rc;
}

void mailstore_sqlite_folder_vfs_waits_end(const unsigned long long *end) { openingWaitEnd = end; }

int mailstore_sqlite_file_moved(sqlite3 *db) {
    sqlite3_file *file = NULL;
    if (db == NULL || sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK) return 0;
    if (file == NULL || file->pMethods == NULL || file->pMethods->xLock != guardedLock) return 0;
    const Extra *x = extraOf(file);
    return x->switchFd >= 0 && !stillAtPath(x);
}

/* Before SQLite is first initialized: no statistics of its memory use (nothing here reads them), so its allocations
   and frees take no global mutex to count themselves (~3% of a search build's writing thread in locking alone). */
static pthread_once_t configured = PTHREAD_ONCE_INIT;
static void configure(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int mailstore_sqlite_folder_vfs(const char *folder, const char *switchLock, char *name, int capacity) {
    if (switchLock == NULL) switchLock = "";
    if (folder == NULL || name == NULL || strlen(folder) > MAX_FOLDER || strlen(switchLock) > MAX_FOLDER + 32) return SQLITE_MISUSE;
    pthread_once(&configured, configure);
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&lock);
    FolderVfs *f = registered;
    while (f != NULL && (strcmp(f->folder, folder) != 0 || strcmp(f->switchLock, switchLock) != 0)) f = f->next;
    if (f == NULL) {
        sqlite3_vfs *real = sqlite3_vfs_find(NULL);
        f = real ? calloc(1, sizeof *f) : NULL;
        if (f == NULL) {
            pthread_mutex_unlock(&lock);
            return real ? SQLITE_NOMEM : SQLITE_ERROR;
        }
        int offset = (real->szOsFile + 15) & ~15;
        extraOffset = offset;
        /* The default VFS's methods take the VFS they were called through; the Unix one's (other than xOpen,
           called through the real VFS below) read no more of it than this copy has. */
        f->base = *real;
        f->base.szOsFile = offset + (int)sizeof(Extra);
        f->base.pNext = NULL;
        f->base.xOpen = folderOpen;
        f->real = real;
        strcpy(f->folder, folder);
        strcpy(f->switchLock, switchLock);
        if (switchLock[0] != 0) {
            snprintf(f->name, sizeof f->name, "mailstore-temp-in:%s;switch:%s", folder, switchLock);
        } else {
            snprintf(f->name, sizeof f->name, "mailstore-temp-in:%s", folder);
        }
        f->base.zName = f->name;
        rc = sqlite3_vfs_register(&f->base, 0);
        if (rc != SQLITE_OK) {
            free(f);
            pthread_mutex_unlock(&lock);
            return rc;
        }
        f->next = registered;
        registered = f;
    }
    rc = (int)strlen(f->name) < capacity ? SQLITE_OK : SQLITE_MISUSE;
    if (rc == SQLITE_OK) strcpy(name, f->name);
    pthread_mutex_unlock(&lock);
    return rc;
}
