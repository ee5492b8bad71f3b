/*
 * Darwin's documented socket behaviour, imposed on any Linux program from outside its code: a library that
 * scripts/ci/darwin/like-darwin preloads (LD_PRELOAD) into the command it runs and into every process that command
 * starts. The package's own emulation (POI_SYSTEM=darwin, Sources/POISockets/DarwinEmulation.swift) sits at its
 * system-call seam; this one sits below it, in the C library's calls, so that it holds whatever path the code takes.
 *
 *   shutdown of a listening socket   fails with ENOTCONN and wakes nothing (XNU, bsd/kern/uipc_socket.c: soshutdown
 *                                    refuses a socket that is neither connected nor connecting)
 *   fstat of a socket                gives no device and no inode (XNU, bsd/kern/sys_socket.c: soo_stat)
 *   accept, accept4                  the accepted socket inherits the listener's O_NONBLOCK (BSD's accept(2); Linux's
 *                                    man page: "does not inherit file status flags such as O_NONBLOCK")
 *   poll                             a descriptor asked for no event is watched for nothing, not even a hang-up; the
 *                                    end of a stream is POLLHUP beside the read events asked for, POLLOUT is not
 *                                    reported beside a hang-up, a socket's error is no POLLERR, and a descriptor that
 *                                    fired and reported nothing (bytes, to one asked for POLLHUP alone) is spent for the
 *                                    rest of the call (XNU, bsd/kern/sys_generic.c: poll_nocancel registers one-shot
 *                                    kevents for the events asked only, poll_callback turns EV_EOF into POLLHUP;
 *                                    NixOS/nix#13847 for POLLHUP alone)
 *   read, recv                       a socket whose stream ended and was then reset says ECONNRESET, not 0 (XNU,
 *                                    bsd/kern/uipc_socket.c: soreceive looks at so_error before SS_CANTRCVMORE)
 *   send, write                      a socket that was reset says EPIPE, not ECONNRESET, and raises SIGPIPE without
 *                                    MSG_NOSIGNAL (XNU, sosendcheck looks at SS_CANTSENDMORE before so_error; sendit)
 *   strerror, gai_strerror           Darwin's words where they differ: ENOTCONN (Libc, gen/errlst.c) and EAI_NONAME
 *                                    (Libinfo, lookup.subproj/si_getaddrinfo.c)
 *   sigwait                          its first call in a process returns 0 with no signal, as Darwin's does when it is
 *                                    interrupted (libpthread, src/pthread_cancelable.c, turns EINTR into 0)
 *
 * Each interposed call counts itself in a file when LIKE_DARWIN_LOG names one, so that a check can see the library
 * was loaded and acted (a preload that silently did nothing would prove nothing).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(const char *what) {
    const char *path = getenv("LIKE_DARWIN_LOG");
    if (path == NULL || *path == '\0') return;
    int saved = errno;
    int log = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (log >= 0) {
        /* The call, the process and its program, which a check names when a call must not happen. */
        char program[4096] = "?";
        ssize_t named = readlink("/proc/self/exe", program, sizeof program - 1);
        if (named > 0) program[named] = '\0';
        const char *base = strrchr(program, '/');
        char line[320];
        int length = snprintf(line, sizeof line, "%s %d %s\n", what, (int)getpid(), base ? base + 1 : program);
        if (length > 0) (void)!write(log, line, (size_t)length);
        close(log);
    }
    errno = saved;
}

static int is_listening(int descriptor) {
    int listening = 0;
    socklen_t length = sizeof listening;
    return getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening;
}

int shutdown(int descriptor, int how) {
    static int (*real)(int, int);
    if (!real) real = (int (*)(int, int))dlsym(RTLD_NEXT, "shutdown");
    if (is_listening(descriptor)) {
        note("shutdown-refused");
        errno = ENOTCONN;
        return -1;
    }
    return real(descriptor, how);
}

static void without_identity(int result, struct stat *status) {
    if (result == 0 && S_ISSOCK(status->st_mode)) {
        note("fstat-socket");
        status->st_dev = 0;
        status->st_ino = 0;
    }
}

int fstat(int descriptor, struct stat *status) {
    static int (*real)(int, struct stat *);
    if (!real) real = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
    int result = real(descriptor, status);
    without_identity(result, status);
    return result;
}

int fstat64(int descriptor, struct stat64 *status) {
    static int (*real)(int, struct stat64 *);
    if (!real) real = (int (*)(int, struct stat64 *))dlsym(RTLD_NEXT, "fstat64");
    int result = real(descriptor, status);
    if (result == 0 && S_ISSOCK(status->st_mode)) {
        note("fstat-socket");
        status->st_dev = 0;
        status->st_ino = 0;
    }
    return result;
}

static int inherit(int listener, int accepted) {
    if (accepted >= 0) {
        int flags = fcntl(listener, F_GETFL, 0);
        if (flags >= 0 && (flags & O_NONBLOCK)) {
            note("accept-inherits");
            int own = fcntl(accepted, F_GETFL, 0);
            if (own >= 0) fcntl(accepted, F_SETFL, own | O_NONBLOCK);
        }
    }
    return accepted;
}

int accept(int listener, struct sockaddr *address, socklen_t *length) {
    static int (*real)(int, struct sockaddr *, socklen_t *);
    if (!real) real = (int (*)(int, struct sockaddr *, socklen_t *))dlsym(RTLD_NEXT, "accept");
    return inherit(listener, real(listener, address, length));
}

int accept4(int listener, struct sockaddr *address, socklen_t *length, int flags) {
    static int (*real)(int, struct sockaddr *, socklen_t *, int);
    if (!real) real = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(RTLD_NEXT, "accept4");
    return inherit(listener, real(listener, address, length, flags));
}

/* The events that make Darwin's poll watch a descriptor for reading (EVFILT_READ) and report it, and for writing. */
#define READ_EVENTS (POLLIN | POLLRDNORM | POLLPRI | POLLRDBAND)
#define WRITE_EVENTS (POLLOUT | POLLWRNORM | POLLWRBAND)

/* What Darwin's poll_callback reports of a descriptor asked for `events`, of which Linux reported `seen`. */
static short darwin_revents(short events, short seen) {
    if (seen & POLLNVAL) return POLLNVAL;
    short revents = 0;
    int read_ended = (seen & (POLLRDHUP | POLLHUP)) != 0;
    if ((events & (READ_EVENTS | POLLHUP)) && (seen & (POLLIN | POLLPRI | POLLRDHUP | POLLHUP | POLLERR))) {
        if (read_ended) {
            revents |= POLLHUP | (events & (POLLIN | POLLRDNORM | POLLPRI | POLLRDBAND));
        } else {
            revents |= events & (POLLIN | POLLRDNORM);
            if (seen & POLLPRI) revents |= events & (POLLPRI | POLLRDBAND);
        }
    }
    if ((events & WRITE_EVENTS) && (seen & (POLLOUT | POLLHUP | POLLERR))) {
        if (seen & (POLLHUP | POLLERR)) {
            revents |= POLLHUP;
        } else if (!(revents & POLLHUP)) {
            revents |= events & WRITE_EVENTS;
        }
    }
    return revents;
}

/* The milliseconds left until `deadline` (CLOCK_MONOTONIC), 0 once it passed. */
static int left_until(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long left = (deadline->tv_sec - now.tv_sec) * 1000LL + (deadline->tv_nsec - now.tv_nsec + 999999) / 1000000;
    return left > 0 ? (int)(left > 2147483647 ? 2147483647 : left) : 0;
}

int poll(struct pollfd *descriptors, nfds_t count, int milliseconds) {
    static int (*real)(struct pollfd *, nfds_t, int);
    if (!real) real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
    struct pollfd *asked = count ? calloc(count, sizeof *asked) : NULL;
    if (count && asked == NULL) return real(descriptors, count, milliseconds);
    for (nfds_t index = 0; index < count; index++) {
        short events = descriptors[index].events, watched = 0;
        if (events & (READ_EVENTS | POLLHUP)) watched |= POLLIN | POLLPRI | POLLRDHUP;
        if (events & WRITE_EVENTS) watched |= POLLOUT;
        asked[index].fd = descriptors[index].fd;
        asked[index].events = watched;
        descriptors[index].revents = 0;
        /* Watched for nothing: Linux ignores a negative descriptor and reports nothing of it. */
        if (watched == 0 && descriptors[index].fd >= 0) {
            note("poll-unwatched");
            asked[index].fd = -1;
        }
    }
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    int result;
    for (;;) {
        int ready = real(asked, count, milliseconds < 0 ? -1 : left_until(&deadline));
        if (ready <= 0) {
            result = ready; /* the time-out, or the call's error */
            break;
        }
        int reported = 0;
        for (nfds_t index = 0; index < count; index++) {
            short seen = asked[index].revents;
            if (asked[index].fd < 0 || seen == 0) continue;
            short revents = darwin_revents(descriptors[index].events, seen);
            if ((revents & POLLHUP) && !(seen & POLLHUP)) note("poll-hangup");
            if (seen & POLLERR) note("poll-no-error");
            descriptors[index].revents = revents;
            if (revents) {
                reported++;
            } else {
                asked[index].fd = -1; /* fired and reported nothing: spent, as a one-shot kevent is */
            }
        }
        if (reported) {
            result = reported;
            break;
        }
    }
    int saved = errno;
    free(asked);
    errno = saved;
    return result;
}

/* Whether `descriptor` is a socket whose stream ended and then had an error (a reset): Darwin's read says the error. */
static int ended_with_error(int descriptor) {
    int pending = 0;
    socklen_t length = sizeof pending;
    if (getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length) != 0 || pending == 0) return 0;
    return pending == EPIPE ? ECONNRESET : pending;
}

/* A read's result as Darwin's: -1 with the error where Linux said the end of a stream that a reset followed. */
static ssize_t as_darwin_reads(int descriptor, ssize_t result, size_t count) {
    int saved = errno, reset = result == 0 && count > 0 ? ended_with_error(descriptor) : 0;
    errno = saved;
    if (!reset) return result;
    note("read-reset");
    errno = reset;
    return -1;
}

ssize_t read(int descriptor, void *bytes, size_t count) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    return as_darwin_reads(descriptor, real(descriptor, bytes, count), count);
}

ssize_t recv(int descriptor, void *bytes, size_t count, int flags) {
    static ssize_t (*real)(int, void *, size_t, int);
    if (!real) real = (ssize_t (*)(int, void *, size_t, int))dlsym(RTLD_NEXT, "recv");
    return as_darwin_reads(descriptor, real(descriptor, bytes, count, flags), count);
}

/* A send that failed with ECONNRESET fails with EPIPE on Darwin, whose socket can send no more once reset, and raises
 * SIGPIPE as Darwin's EPIPE does unless MSG_NOSIGNAL was given (Linux's ECONNRESET raised nothing). SO_NOSIGPIPE is
 * Darwin's alone: no socket here has it. */
static ssize_t as_darwin_sends(ssize_t result, int flags) {
    if (result < 0 && errno == ECONNRESET) {
        note("send-epipe");
        if (!(flags & MSG_NOSIGNAL)) raise(SIGPIPE);
        errno = EPIPE;
    }
    return result;
}

ssize_t send(int descriptor, const void *bytes, size_t count, int flags) {
    static ssize_t (*real)(int, const void *, size_t, int);
    if (!real) real = (ssize_t (*)(int, const void *, size_t, int))dlsym(RTLD_NEXT, "send");
    return as_darwin_sends(real(descriptor, bytes, count, flags), flags);
}

ssize_t write(int descriptor, const void *bytes, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    return as_darwin_sends(real(descriptor, bytes, count), 0);
}

char *strerror(int code) {
    static char *(*real)(int);
    if (!real) real = (char *(*)(int))dlsym(RTLD_NEXT, "strerror");
    if (code == ENOTCONN) {
        note("strerror-darwin");
        return (char *)"Socket is not connected";
    }
    return real(code);
}

const char *gai_strerror(int status) {
    static const char *(*real)(int);
    if (!real) real = (const char *(*)(int))dlsym(RTLD_NEXT, "gai_strerror");
    if (status == EAI_NONAME) {
        note("gai-darwin");
        return "nodename nor servname provided, or not known";
    }
    return real(status);
}

int sigwait(const sigset_t *set, int *signal) {
    static int (*real)(const sigset_t *, int *);
    static int interrupted;
    if (!real) real = (int (*)(const sigset_t *, int *))dlsym(RTLD_NEXT, "sigwait");
    if (!__atomic_exchange_n(&interrupted, 1, __ATOMIC_SEQ_CST)) {
        note("sigwait-interrupted");
        return 0;
    }
    return real(set, signal);
}
