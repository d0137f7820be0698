import Glibc

/// The process's room for new mappings, for maps that must fit under an address-space limit (`ulimit -v`,
/// `RLIMIT_AS`).
///
/// A map that fails inside LMDB cannot be taken back: `mdb_env_set_mapsize` unmaps the old map before it maps
/// the new one, and when that `mmap` fails LMDB is left with no map at all (its next transaction reads through a
/// null address). So a growth asks here first, and a map with no room is never handed to LMDB.
enum AddressSpace {
    /// The process's address-space limit in bytes, or nil when there is none.
    static var limit: Int? {
        var r = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &r) == 0, r.rlim_cur != rlim_t.max else { return nil }
        return r.rlim_cur > UInt(Int.max) ? nil : Int(r.rlim_cur)
    }

    /// True when `bytes` more of address space can be mapped now: reserved (no access, no memory behind it)
    /// and given back at once. Another thread mapping meanwhile can still take the room; the limit is a
    /// process's own setting, so that is rare, and the map's own failure then is still an error, not a crash
    /// of a wrong address (see the type's note: that part is LMDB's).
    static func hasRoom(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let p = mmap(nil, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let p, p != MAP_FAILED else { return false }
        munmap(p, bytes)
        return true
    }

    /// True when a map of `bytes` can replace one of `old` bytes: under an address-space limit, the `bytes - old` more it
    /// counts against the limit (LMDB unmaps the old map first); without one, a hole of the whole `bytes` (where the
    /// address space is fragmented or narrowed, as under a sanitizer, whose shadow memory leaves the program a few
    /// ranges: a 4 TiB map's growth to 8 TiB found room for 4 TiB more but no 8 TiB hole, and LMDB's map failed).
    static func hasRoom(forMap bytes: Int, replacing old: Int) -> Bool {
        limit != nil ? hasRoom(bytes - old) : hasRoom(bytes)
    }

    /// The limit as a person reads it ("2048 MiB (`ulimit -v` 2097152)"), or nil when there is none.
    static var limitDescription: String? {
        limit.map { "\($0 >> 20) MiB (`ulimit -v` \($0 >> 10))" }
    }
}
