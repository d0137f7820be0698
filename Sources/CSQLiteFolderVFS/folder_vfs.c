#include "folder_vfs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

/* The longest folder path accepted: its temporary files' names must fit the default VFS's `mxPathname`
   (512 on Unix) too, which `xOpen` checks. */
#define MAX_FOLDER 4000

/* One folder's VFS: a copy of the default VFS whose `xOpen` names the temporary files. */
typedef struct FolderVfs {
    sqlite3_vfs base;
    sqlite3_vfs *real;
    struct FolderVfs *next;
    char folder[MAX_FOLDER + 1];
    char name[MAX_FOLDER + 32];
} FolderVfs;

/* What this VFS keeps after the default VFS's file object: the methods it set and the name it was given (freed
   when the file is closed; the default VFS keeps a pointer to it while the file is open). */
typedef struct Extra {
    const sqlite3_io_methods *real;
    char *name;
} Extra;

/* A default VFS's methods with `xClose` replaced: one per methods table seen (the Unix VFS has a handful). */
typedef struct Wrapped {
    const sqlite3_io_methods *real;
    sqlite3_io_methods wrapped;
} Wrapped;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FolderVfs *registered = NULL;
#define MAX_WRAPPED 16
static Wrapped wrapped[MAX_WRAPPED];
static int wrappedCount = 0;
/* Where `Extra` starts in a file object: after the default VFS's, aligned (every folder VFS wraps the same one). */
static int extraOffset = 0;

static Extra *extraOf(sqlite3_file *file) { return (Extra *)((char *)file + extraOffset); }

static int folderClose(sqlite3_file *file) {
    Extra *x = extraOf(file);
    const sqlite3_io_methods *real = x->real;
    char *name = x->name;
    file->pMethods = real;
    int rc = real->xClose(file);
    x->real = NULL;
    x->name = NULL;
    sqlite3_free(name);
    return rc;
}

/* The methods table wrapping `real`, or NULL when MAX_WRAPPED tables were seen already. */
static const sqlite3_io_methods *wrapping(const sqlite3_io_methods *real) {
    const sqlite3_io_methods *found = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < wrappedCount && !found; i++) {
        if (wrapped[i].real == real) found = &wrapped[i].wrapped;
    }
    if (!found && wrappedCount < MAX_WRAPPED) {
        wrapped[wrappedCount].real = real;
        wrapped[wrappedCount].wrapped = *real;
        wrapped[wrappedCount].wrapped.xClose = folderClose;
        found = &wrapped[wrappedCount].wrapped;
        wrappedCount++;
    }
    pthread_mutex_unlock(&lock);
    return found;
}

static int folderOpen(sqlite3_vfs *vfs, const char *zName, sqlite3_file *file, int flags, int *outFlags) {
    FolderVfs *f = (FolderVfs *)vfs;
    Extra *x = extraOf(file);
    x->real = NULL;
    x->name = NULL;
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
    const sqlite3_io_methods *methods = file->pMethods ? wrapping(file->pMethods) : NULL;
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

/* Before SQLite is first initialized: no statistics of its memory use (nothing here reads them), so its allocations
   and frees take no global mutex to count themselves (~3% of a search build's writing thread in locking alone). */
static pthread_once_t configured = PTHREAD_ONCE_INIT;
static void configure(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int mailstore_sqlite_folder_vfs(const char *folder, char *name, int capacity) {
    if (folder == NULL || name == NULL || strlen(folder) > MAX_FOLDER) return SQLITE_MISUSE;
    pthread_once(&configured, configure);
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&lock);
    FolderVfs *f = registered;
    while (f != NULL && strcmp(f->folder, folder) != 0) f = f->next;
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
        snprintf(f->name, sizeof f->name, "mailstore-temp-in:%s", folder);
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
