/* What the POSIX sources need where the platform lacks it: the Windows build of the
 * CheckerBoard engine (make cb-win, mingw-w64) reads files in binary mode and has no
 * non-blocking or close-on-exec open flags. Elsewhere every name here is the system's. */
#ifndef PK_PORT_H
#define PK_PORT_H

#include <fcntl.h>

/* printf-like functions: checked as GNU printf everywhere (mingw-w64's own archetype is
 * Microsoft's, which knows no %zu; its build uses the C99 printf family) */
#ifdef __MINGW32__
#define PK_PRINTF(fmt, args) __attribute__((format(gnu_printf, fmt, args)))
#else
#define PK_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#endif

#ifdef _WIN32
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#define PK_O_BINARY O_BINARY
#include <sys/types.h>
/* pread: a read at an offset that leaves the file's position alone, so that threads may
 * share the descriptor (base/port.c, by ReadFile with an offset). */
ssize_t pk_pread(int fd, void *buf, size_t n, off_t off);
#define pread pk_pread
#else
#define PK_O_BINARY 0
#endif

#endif
