// Runs the C++ runtime's __cxa_demangle in a forked child with a time and address-space limit, for names whose
// printed form may grow exponentially (substitutions that refer to substitutions). __cxa_demangle has no bound on
// what it prints and no way to stop it part way, so the only bound that does not mean writing a second Itanium
// demangler is a process that can be stopped. Written in C because the child may run only what is safe after
// fork in a threaded process (malloc, write, _exit), never Swift runtime code.
#ifndef APM_DEMANGLE_SANDBOX_H
#define APM_DEMANGLE_SANDBOX_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef char *(*apm_cxa_demangle_fn)(const char *, char *, size_t *, int *);

/// The process's virtual size in bytes from /proc/self/statm, or 0 where that cannot be read.
static inline unsigned long long apm_sandbox_virtual_size(void) {
#if defined(__linux__)
    char text[64];
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0) return 0;
    unsigned long long pages = 0;
    for (ssize_t i = 0; i < got && text[i] >= '0' && text[i] <= '9'; i++) pages = pages * 10 + (unsigned)(text[i] - '0');
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? pages * (unsigned long long)page : 0;
#else
    return 0;
#endif
}

static inline long long apm_sandbox_elapsed_ms(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/// In a demangling child just forked: default signal dispositions and an address-space limit of the parent's size
/// plus `extra_memory`.
///
/// The parent's handlers (a fuzzer's, a sanitizer's, the embedding application's) must not run here: a signal ends
/// the child, and the parent reads that as "not demangled".
static inline void apm_sandbox_child_setup(unsigned long long extra_memory) {
    int defaults[] = {SIGALRM, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGXCPU, SIGPIPE, SIGTERM, SIGINT};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) signal(defaults[i], SIG_DFL);
    unsigned long long size = apm_sandbox_virtual_size();
    if (size > 0) {
        struct rlimit limit;
        limit.rlim_cur = (rlim_t)(size + extra_memory);
        limit.rlim_max = (rlim_t)(size + extra_memory);
        setrlimit(RLIMIT_AS, &limit);
    }
}

/// Demangles `name` (NUL-terminated) with `demangle` in a child process and copies at most `capacity` bytes of the
/// result into `out`.
///
/// Returns the result's length; -1 when the name does not demangle, or its result is longer than `capacity`, or
/// the child ran past `timeout_ms` or `extra_memory` bytes of address space beyond the parent's (it is killed);
/// -2 when no child could be made.
static inline long apm_demangle_sandboxed(apm_cxa_demangle_fn demangle, const char *name, char *out, size_t capacity,
                                          int timeout_ms, unsigned long long extra_memory) {
    int fds[2];
    if (pipe(fds) != 0) return -2;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -2;
    }
    if (pid == 0) {
        close(fds[0]);
        apm_sandbox_child_setup(extra_memory);
        alarm((unsigned)(timeout_ms / 1000 + 2));
        int status = 0;
        char *result = demangle(name, NULL, NULL, &status);
        if (status != 0 || result == NULL) _exit(1);
        size_t length = strlen(result);
        if (length > capacity) _exit(2);
        size_t written = 0;
        while (written < length) {
            ssize_t n = write(fds[1], result + written, length - written);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) _exit(3);
            written += (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    size_t got = 0;
    int failed = 0;
    for (;;) {
        long long left = (long long)timeout_ms - apm_sandbox_elapsed_ms(&start);
        if (left <= 0) {
            failed = 1;
            break;
        }
        struct pollfd wait_for = {fds[0], POLLIN, 0};
        int ready = poll(&wait_for, 1, (int)left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) {
            failed = 1;
            break;
        }
        char scratch[1];
        char *into = got < capacity ? out + got : scratch;
        size_t room = got < capacity ? capacity - got : 1;
        ssize_t n = read(fds[0], into, room);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 || (n > 0 && into == scratch)) {
            failed = 1;
            break;
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    if (failed) kill(pid, SIGKILL);
    int status = 0;
    pid_t reaped;
    do {
        reaped = waitpid(pid, &status, 0);
    } while (reaped < 0 && errno == EINTR);
    if (failed || reaped != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return (long)got;
}

#endif
