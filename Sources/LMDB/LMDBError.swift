import CLMDB
import Glibc

/// A failed LMDB call: which call, LMDB's return code and message, and what to do about it.
@usableFromInline package struct LMDBError: Error, Equatable, Sendable, CustomStringConvertible {
    /// LMDB's (or the system's) return code.
    @usableFromInline package let code: Int32
    /// The call that failed, e.g. `mdb_put(events)`.
    @usableFromInline package let operation: String

    /// Creates an error for `code` returned by `operation`.
    @usableFromInline package init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// True for `MDB_MAP_FULL` (the environment grows the map and retries on its own).
    @usableFromInline package var isMapFull: Bool { code == MDB_MAP_FULL }
    /// True when the file is damaged or not an LMDB file (`MDB_CORRUPTED`, `MDB_PAGE_NOTFOUND`, `MDB_INVALID`,
    /// `MDB_VERSION_MISMATCH`).
    @usableFromInline package var isCorruption: Bool {
        code == MDB_CORRUPTED || code == MDB_PAGE_NOTFOUND || code == MDB_INVALID || code == MDB_VERSION_MISMATCH
    }
    /// True for what a damaged file can make reads of it and writes built from it meet: any of LMDB's own codes but
    /// those about resources and plain absence (keys out of order give `MDB_KEYEXIST` in an ordered write, a bad page's
    /// sizes `MDB_BAD_VALSIZE` or `MDB_PAGE_FULL`, its flags `MDB_INCOMPATIBLE`, besides `isCorruption`'s), and but
    /// those no file's bytes give: `MDB_PANIC` (this process's environment failed a write before), `MDB_BAD_DBI` (a
    /// handle used after its table changed: a programming error) and `MDB_VERSION_MISMATCH` in the lock file (another
    /// LMDB version's program holds the store open).
    @usableFromInline package var mayBeDamage: Bool {
        let notOfTheFile: [Int32] = [MDB_NOTFOUND, MDB_MAP_FULL, MDB_DBS_FULL, MDB_READERS_FULL, MDB_TLS_FULL, MDB_TXN_FULL,
                                     MDB_CURSOR_FULL, MDB_MAP_RESIZED, MDB_BAD_RSLOT, MDB_BAD_TXN,
                                     MDB_PANIC, MDB_BAD_DBI, MDB_VERSION_MISMATCH]
        return code >= MDB_KEYEXIST && code <= MDB_LAST_ERRCODE && !notOfTheFile.contains(code)
    }
    /// True when the process ran short of something of its own, not of the file's making: address space or memory
    /// (`ENOMEM`, under `ulimit -v`), open files (`EMFILE`, `ENFILE`), reader slots (`MDB_READERS_FULL`).
    @usableFromInline package var isShortOfResources: Bool {
        code == ENOMEM || code == EMFILE || code == ENFILE || code == MDB_READERS_FULL
    }
    /// True for `ENOSPC`: the file system is full (nothing of the failed write was stored).
    @usableFromInline package var isDiskFull: Bool { code == ENOSPC }
    /// True for `MDB_INVALID` or `MDB_VERSION_MISMATCH`: the file opened is not an LMDB data file of this version.
    @usableFromInline package var isNotAnEnvironment: Bool { code == MDB_INVALID || code == MDB_VERSION_MISMATCH }
    /// True for `MDB_NOTFOUND` (a named database that does not exist, opened without creating it).
    @usableFromInline package var isNotFound: Bool { code == MDB_NOTFOUND }
    /// True for `MDB_KEYEXIST`.
    @usableFromInline package var isKeyExists: Bool { code == MDB_KEYEXIST }

    /// LMDB's own message for the code.
    @usableFromInline package var message: String { String(cString: mdb_strerror(code)) }

    /// What a person can do about it.
    @usableFromInline package var advice: String {
        switch code {
        case MDB_MAP_FULL: "the database map is full and could not grow: free disk space"
        case MDB_READERS_FULL: "too many readers: close other mailstore processes"
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND: "the database file is corrupt: restore it from a backup"
        case MDB_VERSION_MISMATCH:
            "the file or its lock file is of another LMDB version: close any program built with another LMDB that uses "
                + "this store, then run the command again"
        case MDB_INVALID: "the file is not an LMDB database of a version this build reads"
        case MDB_PANIC: "an earlier write of this process failed and LMDB stopped the environment: run the command again"
        case MDB_BAD_DBI: "a table changed under this process (a programming error): run the command again and report it"
        case 13 /* EACCES */: "permission denied: check the store folder's owner and mode"
        case ENOSPC: "the disk is full: free space and run the command again (nothing of the failed write was stored)"
        case 11 /* EAGAIN */: "the environment is locked by another process"
        case EFBIG:
            "a file would pass this process's file-size limit (`ulimit -f`): nothing of the failed write was stored; "
                + "raise the limit (`ulimit -f unlimited`) and run the command again"
        case ENOMEM:
            if let limit = AddressSpace.limitDescription {
                "this process has no room left to map the file: its address-space limit is \(limit); nothing was "
                    + "changed: raise the limit (`ulimit -v unlimited`) and run the command again"
            } else {
                "out of memory mapping the file: nothing was changed; close other programs and run the command again"
            }
        default: "see the LMDB message"
        }
    }

    @usableFromInline package var description: String { "\(operation) failed: \(message) (\(code)); \(advice)" }

    /// Throws unless `rc` is 0.
    @inline(__always) static func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws {
        if rc != 0 { throw LMDBError(code: rc, operation: operation()) }
    }
}
