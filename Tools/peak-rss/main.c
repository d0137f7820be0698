// peak-rss: runs a command and reports its own peak resident memory, for `bench`.
//
// Why: a child's ru_maxrss from wait4 is at least the resident size of the process that exec'ed it (Linux sets
// the new image's maxrss from the old mm at exec). `bench` is that process, at 77 MiB on a 1M-message run, so
// every step it spawned read >= 77 MiB however little the step used. This helper is small (< 2 MiB resident):
// it forks (a copy of itself, not of `bench`), execs the command, waits for it, and writes to the descriptor
// named by its first argument:
//     "pid <child pid>\n"          as soon as the child exists (`bench` samples its /proc entry)
//     "maxrss <KiB>\n"             after the child ended (its wait4 ru_maxrss)
// It exits with the child's exit status, or 128 + the signal that ended it.
//
// Usage: peak-rss FD COMMAND [ARG...]

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(int fd, const char *key, long value) {
    char line[64];
    int n = snprintf(line, sizeof line, "%s %ld\n", key, value);
    if (n > 0 && write(fd, line, (size_t)n) != n) { /* bench then falls back to this helper's own figure, which counts bench's size */ }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: peak-rss FD COMMAND [ARG...]\n");
        return 64;
    }
    char *end = NULL;
    long fd = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || fd < 3 || fd > 1023) {
        fprintf(stderr, "peak-rss: the report descriptor must be a number from 3 to 1023, not \"%s\"\n", argv[1]);
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "peak-rss: fork failed: %s\n", strerror(errno));
        return 71;
    }
    if (pid == 0) {
        close((int)fd);
        execv(argv[2], argv + 2);
        fprintf(stderr, "peak-rss: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    say((int)fd, "pid", (long)pid);
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "peak-rss: wait4 failed: %s\n", strerror(errno));
            return 71;
        }
    }
    say((int)fd, "maxrss", usage.ru_maxrss);
    close((int)fd);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 71;
}
