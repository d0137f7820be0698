#ifndef MAILSTORE_CPROCESS_SHIM_H
#define MAILSTORE_CPROCESS_SHIM_H
/* prctl(PR_SET_PDEATHSIG), which Swift cannot call: prctl is variadic. */
#include <sys/prctl.h>
#include <signal.h>

/* Asks the kernel to send `signal` to this process when its parent ends; 0 on success, -1 with errno set. */
static inline int mailstore_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

/* Names the calling thread as the system shows it (`top -H`, /proc/self/task/TID/comm): the kernel keeps the first
   15 bytes. 0 on success, -1 with errno set. */
static inline int mailstore_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

#include <stdio.h>
#include <errno.h>

/* Flushes stdio's standard output and says whether all it was given reached the file: 0 if so; else the error number
   of the flush that failed, or 0x7fffffff when an earlier write failed (stdio keeps no error number for it). Swift 6
   cannot name `stdout` (a C global it takes for shared mutable state). */
static inline int mailstore_stdout_finish(void) {
    errno = 0;
    if (fflush(stdout) != 0) return errno != 0 ? errno : 0x7fffffff;
    return ferror(stdout) ? 0x7fffffff : 0;
}
#endif
