#ifndef MAILSTORE_CPROCESS_SHIM_H
#define MAILSTORE_CPROCESS_SHIM_H
/* prctl(PR_SET_PDEATHSIG), which Swift cannot call: prctl is variadic. */
#include <sys/prctl.h>
#include <signal.h>

/* Asks the kernel to send `signal` to this process when its parent ends; 0 on success, -1 with errno set. */
static inline int mailstore_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
#endif
