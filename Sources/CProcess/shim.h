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

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* In a forked child: closes every descriptor from `first` on (close_range, else one by one up to 65,536). */
static inline void mailstore_close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    for (int fd = first; fd < 65536; fd++) close(fd);
}

/* Makes `fd` the child's descriptor `target` (kept across exec); 0 on success, else the error number. */
static inline int mailstore_child_fd(int fd, int target) {
    if (fd == target) return fcntl(fd, F_SETFD, 0) == 0 ? 0 : errno;
    return dup2(fd, target) == target ? 0 : errno;
}

/* Starts `path` with `argv` and `envp` (built before the call: between fork and exec only async-signal-safe calls are
   made) as the leader of a process group of its own, bound to this process: however this process ends (SIGKILL too),
   the command's whole process group is killed (SIGKILL), its children with it.

   Two children of the calling thread: the command, with PR_SET_PDEATHSIG SIGKILL (the kernel kills it when its parent
   ends), and a guard that never execs (a copy of this process that closes every descriptor and waits, all signals
   blocked, for its own PR_SET_PDEATHSIG SIGTERM, or a SIGTERM sent to it), which then kills the command's group: the
   command's children do not inherit a parent-death signal. The guard stays in this process's group (an interrupt
   from the terminal does not reach it: every signal blocked), so the command's `$PPID` is still this process. The command waits (a pipe) until the guard is armed, and each checks getppid() after
   arming, so a parent that ended before either armed still ends the command (the race PR_SET_PDEATHSIG leaves).
   The parent-death signal comes when the *thread* that forked ends, so the calling thread must wait for the command.

   `stdin_fd` (-1: /dev/null) and `stdout_fd` become the command's descriptors 0 and 1 (neither may be 0 or 1 unless it
   is its own target); its stderr is ours; every signal is at its default and none blocked. Returns the command's pid
   and sets `*guard_pid` (the caller, once the command was waited for, kills the guard with SIGKILL and waits for it);
   or minus the error number when it could not start (fork, or the exec itself: ENOENT for a missing `path`). */
static inline pid_t mailstore_spawn_bound(const char *path, char *const argv[], char *const envp[], int stdin_fd,
                                          int stdout_fd, pid_t *guard_pid) {
    pid_t parent = getpid();
    int go[2], report[2];
    if (syscall(SYS_pipe2, go, O_CLOEXEC) != 0) return -errno;
    if (syscall(SYS_pipe2, report, O_CLOEXEC) != 0) {
        int e = errno;
        close(go[0]);
        close(go[1]);
        return -e;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(go[0]); close(go[1]); close(report[0]); close(report[1]);
        return -e;
    }
    if (pid == 0) {
        /* The command. */
        int e = 0;
        close(go[1]);
        close(report[0]);
        if (setpgid(0, 0) != 0 || prctl(PR_SET_PDEATHSIG, (unsigned long)SIGKILL, 0UL, 0UL, 0UL) != 0) e = errno;
        if (e == 0 && getppid() != parent) _exit(127);
        if (e == 0) {
            char c;
            ssize_t n;
            do { n = read(go[0], &c, 1); } while (n < 0 && errno == EINTR);
            if (n != 1) e = ECANCELED;  /* no guard: it could not start, or the parent ended */
        }
        if (e == 0 && stdin_fd < 0) {
            int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (null < 0) e = errno;
            else e = mailstore_child_fd(null, 0);
        } else if (e == 0) {
            e = mailstore_child_fd(stdin_fd, 0);
        }
        if (e == 0) e = mailstore_child_fd(stdout_fd, 1);
        if (e == 0) {
            struct sigaction dfl;
            dfl.sa_handler = SIG_DFL;
            dfl.sa_flags = 0;
            sigemptyset(&dfl.sa_mask);
            for (int s = 1; s < NSIG; s++) {
                if (s != SIGKILL && s != SIGSTOP) sigaction(s, &dfl, 0);  /* glibc's own (32, 33) refuse: fine */
            }
            sigset_t none;
            sigemptyset(&none);
            sigprocmask(SIG_SETMASK, &none, 0);
            execve(path, argv, envp);
            e = errno;
        }
        ssize_t w;
        do { w = write(report[1], &e, sizeof e); } while (w < 0 && errno == EINTR);
        _exit(127);
    }
    close(go[0]);
    close(report[1]);
    setpgid(pid, pid);  /* here too: the group exists before the guard or a timeout names it (EACCES once it exec'd) */
    pid_t guard = fork();
    if (guard == 0) {
        /* The guard: waits for this process to end, then kills the command's group. */
        sigset_t all;
        sigfillset(&all);
        sigprocmask(SIG_SETMASK, &all, 0);
        if (prctl(PR_SET_PDEATHSIG, (unsigned long)SIGTERM, 0UL, 0UL, 0UL) == 0 && getppid() == parent) {
            char c = 1;
            ssize_t w;
            do { w = write(go[1], &c, 1); } while (w < 0 && errno == EINTR);
            mailstore_close_from(0);
            sigset_t term;
            sigemptyset(&term);
            sigaddset(&term, SIGTERM);
            /* The parent-death signal (the calling thread ended, or the process), or a SIGTERM sent to the guard:
               either way the command goes. */
            while (sigwaitinfo(&term, 0) < 0) {}
        }
        kill(-pid, SIGKILL);
        _exit(0);
    }
    int e = guard < 0 ? errno : 0;
    close(go[1]);  /* without a guard the command reads end-of-file and does not exec */
    int status;
    if (e == 0) {
        /* The report pipe closes at the command's exec; before that it says why the exec failed. */
        ssize_t n;
        do { n = read(report[0], &e, sizeof e); } while (n < 0 && errno == EINTR);
        if (n != (ssize_t)sizeof e) e = 0;
    }
    close(report[0]);
    if (e != 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        if (guard > 0) {
            kill(guard, SIGKILL);
            while (waitpid(guard, &status, 0) < 0 && errno == EINTR) {}
        }
        return -e;
    }
    *guard_pid = guard;
    return pid;
}
#endif
