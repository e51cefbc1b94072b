// Runs the Swift runtime's demanglers in a long-lived child process, one name at a time over a socket.
//
// The Swift runtime's demangler aborts the process on some malformed names (its node printer calls abort on a tree
// it cannot print: the 5-byte `$sRvs` is one, found by FuzzSwiftDemangle), and names come from hostile reports and
// symbol files. A crash there must cost one name, not the worker's whole run, so the demangler never runs in the
// calling process: a child forked once serves every name, and when it dies or stalls the name is reported as not
// demangled and a new child is forked for the next one. A forked child per name (demangle_sandbox.h) would be as
// safe but costs a fork for every frame; the round trip here is two small socket messages.
//
// Written in C because the child may run only what is safe after fork in a threaded process (malloc, the
// demangler's C++ code, read, write, _exit), never Swift code.
#ifndef APM_DEMANGLE_WORKER_H
#define APM_DEMANGLE_WORKER_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "demangle_sandbox.h"

/// `swift_demangle`: name, length, output buffer, its size, flags.
typedef char *(*apm_swift_demangle_fn)(const char *, size_t, char *, size_t *, uint32_t);
/// `_swift_backtrace_demangle`: name, length, output buffer, its size, status.
typedef char *(*apm_backtrace_demangle_fn)(const char *, size_t, char *, size_t *, int *);

/// The Swift runtime's demanglers, referenced by name so that the linker resolves them in a binary that links the
/// standard library statically too. `dlsym` finds only a binary's exported dynamic symbols, and a
/// `--static-swift-stdlib` binary exports none: there it found neither, and no Swift name was demangled. Weak, so a
/// runtime without one of them leaves it NULL (and the caller falls back to `dlsym`).
extern char *swift_demangle(const char *, size_t, char *, size_t *, uint32_t) __attribute__((weak));
extern char *_swift_backtrace_demangle(const char *, size_t, char *, size_t *, int *) __attribute__((weak));

static inline apm_swift_demangle_fn apm_linked_swift_demangle(void) { return swift_demangle; }
static inline apm_backtrace_demangle_fn apm_linked_backtrace_demangle(void) { return _swift_backtrace_demangle; }

enum { APM_WORKER_SIMPLIFIED = 0, APM_WORKER_FULL = 1 };
#define APM_WORKER_MAX_NAME (1u << 16)
#define APM_WORKER_NONE 0xFFFFFFFFu

static pthread_mutex_t apm_worker_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t apm_worker_pid = 0;
static int apm_worker_fd = -1;
/// How many children were forked, for tests that check a crash cost one name and not the worker.
static unsigned long apm_worker_forks = 0;

static inline int apm_worker_read_full(int fd, void *into, size_t count) {
    size_t got = 0;
    while (got < count) {
        ssize_t n = read(fd, (char *)into + got, count - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        got += (size_t)n;
    }
    return 1;
}

static inline int apm_worker_write_full(int fd, const void *from, size_t count) {
    size_t sent = 0;
    while (sent < count) {
        ssize_t n = send(fd, (const char *)from + sent, count - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        sent += (size_t)n;
    }
    return 1;
}

/// The child: reads (op, length, name) requests until the socket closes, answers (length, bytes) or APM_WORKER_NONE.
static inline void apm_worker_serve(int fd, apm_backtrace_demangle_fn simplified, apm_swift_demangle_fn full,
                                    size_t capacity) {
    char *name = (char *)malloc(APM_WORKER_MAX_NAME + 1);
    if (name == NULL) _exit(3);
    for (;;) {
        unsigned char header[5];
        if (!apm_worker_read_full(fd, header, sizeof header)) _exit(0);
        uint32_t length = (uint32_t)header[1] | (uint32_t)header[2] << 8 | (uint32_t)header[3] << 16
                          | (uint32_t)header[4] << 24;
        if (length > APM_WORKER_MAX_NAME || !apm_worker_read_full(fd, name, length)) _exit(4);
        name[length] = 0;
        char *result = NULL;
        if (header[0] == APM_WORKER_SIMPLIFIED && simplified != NULL) {
            int status = 0;
            result = simplified(name, length, NULL, NULL, &status);
        } else if (header[0] == APM_WORKER_FULL && full != NULL) {
            result = full(name, length, NULL, NULL, 0);
        }
        uint32_t answer = APM_WORKER_NONE;
        if (result != NULL) {
            size_t size = strnlen(result, capacity + 1);
            if (size <= capacity) answer = (uint32_t)size;
        }
        unsigned char reply[4] = {(unsigned char)answer, (unsigned char)(answer >> 8), (unsigned char)(answer >> 16),
                                  (unsigned char)(answer >> 24)};
        int ok = apm_worker_write_full(fd, reply, sizeof reply)
                 && (answer == APM_WORKER_NONE || apm_worker_write_full(fd, result, answer));
        free(result);
        if (!ok) _exit(0);
    }
}

/// Ends the current child (it stalled, died or lost its socket); the next request forks a new one.
static inline void apm_worker_reset(int kill_it) {
    if (apm_worker_fd >= 0) close(apm_worker_fd);
    apm_worker_fd = -1;
    if (apm_worker_pid > 0) {
        if (kill_it) kill(apm_worker_pid, SIGKILL);
        int status = 0;
        while (waitpid(apm_worker_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    apm_worker_pid = 0;
}

static inline int apm_worker_start(apm_backtrace_demangle_fn simplified, apm_swift_demangle_fn full,
                                   size_t capacity, unsigned long long extra_memory) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return 0;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (pid == 0) {
        close(fds[0]);
        apm_sandbox_child_setup(extra_memory);
        apm_worker_serve(fds[1], simplified, full, capacity);
        _exit(0);
    }
    close(fds[1]);
    apm_worker_pid = pid;
    apm_worker_fd = fds[0];
    apm_worker_forks++;
    return 1;
}

/// Demangles `name` (`length` bytes) with the Swift runtime's `op` demangler in the worker, copying at most
/// `capacity` bytes of the result into `out`.
///
/// Returns the result's length; -1 when the name does not demangle, its result is longer than `capacity`, or the
/// worker died on it or took longer than `timeout_ms` (it is then replaced); -2 when no worker could be made.
static inline long apm_demangle_in_worker(int op, apm_backtrace_demangle_fn simplified, apm_swift_demangle_fn full,
                                          const char *name, size_t length, char *out, size_t capacity,
                                          int timeout_ms, unsigned long long extra_memory) {
    if (length > APM_WORKER_MAX_NAME) return -1;
    pthread_mutex_lock(&apm_worker_lock);
    if (apm_worker_fd < 0 && !apm_worker_start(simplified, full, capacity, extra_memory)) {
        pthread_mutex_unlock(&apm_worker_lock);
        return -2;
    }
    unsigned char header[5] = {(unsigned char)op, (unsigned char)length, (unsigned char)(length >> 8),
                               (unsigned char)(length >> 16), (unsigned char)(length >> 24)};
    long result = -1;
    int healthy = apm_worker_write_full(apm_worker_fd, header, sizeof header)
                  && apm_worker_write_full(apm_worker_fd, name, length);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned char reply[4];
    size_t got = 0;
    uint32_t answer = 0;
    size_t body = 0;
    // Four bytes of length, then the result: every read waits for what is left of the time limit.
    while (healthy) {
        long long left = (long long)timeout_ms - apm_sandbox_elapsed_ms(&start);
        if (left <= 0) {
            healthy = 0;
            break;
        }
        struct pollfd wait_for = {apm_worker_fd, POLLIN, 0};
        int ready = poll(&wait_for, 1, (int)left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) {
            healthy = 0;
            break;
        }
        ssize_t n;
        if (got < sizeof reply) {
            n = read(apm_worker_fd, reply + got, sizeof reply - got);
        } else {
            n = read(apm_worker_fd, out + body, answer - body);
        }
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            healthy = 0;
            break;
        }
        if (got < sizeof reply) {
            got += (size_t)n;
            if (got < sizeof reply) continue;
            answer = (uint32_t)reply[0] | (uint32_t)reply[1] << 8 | (uint32_t)reply[2] << 16
                     | (uint32_t)reply[3] << 24;
            if (answer == APM_WORKER_NONE) break;
            if (answer > capacity) {
                healthy = 0;
                break;
            }
        } else {
            body += (size_t)n;
        }
        if (body == answer) {
            result = (long)answer;
            break;
        }
    }
    if (!healthy) apm_worker_reset(1);
    pthread_mutex_unlock(&apm_worker_lock);
    return result;
}

/// How many worker processes this process has forked.
static inline unsigned long apm_demangle_worker_forks(void) {
    pthread_mutex_lock(&apm_worker_lock);
    unsigned long forks = apm_worker_forks;
    pthread_mutex_unlock(&apm_worker_lock);
    return forks;
}

#endif
