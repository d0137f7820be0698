import Foundation
import TestSupport

/// An `LD_PRELOAD` library that steps a child process's wall clock (`CLOCK_REALTIME`, `gettimeofday`, `time`) by the
/// seconds written in a file, read at every call, so a test steps the clock of a running `mailstore` as an NTP step or
/// a resumed VM does; the monotonic clock is left alone, as they leave it. Built with the system's `cc` into the test's
/// folder.
final class WallClockShim {
    /// The built library.
    let library: String
    /// The file holding the step, in seconds.
    let shiftFile: String

    /// Builds the library in `folder`, the clock not stepped.
    init(folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = folder + "/shift.c"
        library = folder + "/shift.so"
        shiftFile = folder + "/shift"
        try Data(WallClockShim.source.utf8).write(to: URL(fileURLWithPath: source))
        try step(0)
        let r = try ChildProcess.run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"])
        guard r.status == 0 else { throw TestServerError("cannot build the clock shim: \(r.stderr)") }
    }

    /// Steps the wall clock of the processes run with `environment` to `seconds` from the real one (negative: back).
    func step(_ seconds: Int) throws {
        // Written whole, then renamed over the file: a reader never sees half a number.
        let partial = shiftFile + ".new"
        try Data("\(seconds)\n".utf8).write(to: URL(fileURLWithPath: partial))
        guard rename(partial, shiftFile) == 0 else { throw TestServerError("cannot rename \(partial): \(errno)") }
    }

    /// The environment of a `mailstore` whose wall clock follows `step`, its store `home`.
    func environment(home: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = home
        env["LD_PRELOAD"] = library
        env["MAILSTORE_TEST_CLOCK_STEP_FILE"] = shiftFile
        return env
    }

    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <stdlib.h>
        #include <sys/time.h>
        #include <time.h>
        #include <unistd.h>
        static long long step_now(void) {
            const char *f = getenv("MAILSTORE_TEST_CLOCK_STEP_FILE");
            if (!f) return 0;
            int fd = open(f, O_RDONLY | O_CLOEXEC);
            if (fd < 0) return 0;
            char buf[64] = {0};
            ssize_t n = read(fd, buf, sizeof buf - 1);
            close(fd);
            return n > 0 ? strtoll(buf, NULL, 10) : 0;
        }
        int clock_gettime(clockid_t id, struct timespec *ts) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
            int r = real(id, ts);
            if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += step_now();
            return r;
        }
        int gettimeofday(struct timeval *tv, void *tz) {
            static int (*real)(struct timeval *, void *);
            if (!real) real = (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
            int r = real(tv, tz);
            if (r == 0 && tv) tv->tv_sec += step_now();
            return r;
        }
        time_t time(time_t *t) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            if (t) *t = ts.tv_sec;
            return ts.tv_sec;
        }
        """#
}
