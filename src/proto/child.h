/* Another program as a child process that pdnkit talks to in lines of text: started
 * without a shell in a process group of its own (a Ctrl-C for pdnkit is not one for
 * it), its standard input and output one socket (writing to a child that died is an
 * error, not a SIGPIPE), the last kilobyte of its standard error kept for the message
 * when it fails; stopped with SIGKILL to its group and reaped, so that nothing is left
 * behind. Also the line reader with a timeout that both sides of a protocol use. */
#ifndef PK_CHILD_H
#define PK_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
	char buf[65536];
	size_t len;
	bool eof;
	bool overlong;              /* the last line taken was cut at the buffer's size */
} pk_linebuf;

/* The next line of fd (without "\n" or "\r\n") into out, waiting up to timeout seconds
 * (forever when < 0): 1, 0 when none came in time, -1 at the end of input or on a read
 * error. A line longer than out is cut (and overlong set). */
int linebuf_read(pk_linebuf *lb, int fd, char *out, size_t size, double timeout);
/* Whether a whole line is already buffered (so waiting on fd would miss it). */
bool linebuf_has_line(const pk_linebuf *lb);

typedef struct {
	pid_t pid;                  /* 0: not running */
	int fd;                     /* its standard input and output */
	int errfd;                  /* its standard error, read side */
	pk_linebuf in;
	char err_tail[1024];        /* the end of what it wrote on standard error */
	size_t err_len;
	int status;                 /* as waitpid gives it, once reaped */
	bool reaped;
} pk_child;

/* Starts argv[0] (looked up in PATH when it has no "/"). 0, or -1 with the reason in err
 * (a program that cannot be executed is said here, not later). */
int child_start(pk_child *c, char *const argv[], char *err, size_t errsize);
/* Sends one line ("\n" added): 0, or -1 when the child is gone. */
int child_send(pk_child *c, const char *line);
/* The next line the child writes, as linebuf_read; its standard error is collected
 * meanwhile. */
int child_read_line(pk_child *c, char *out, size_t size, double timeout);
/* Whether it has ended (reaped now if so). */
bool child_exited(pk_child *c);
/* Waits up to seconds for it to end: whether it has (reaped if so). */
bool child_wait(pk_child *c, double seconds);
/* How it ended ("exited with status 3", "killed by signal 11 (Segmentation fault)"),
 * waiting up to wait seconds for it to end; "is still running" otherwise. */
const char *child_exit_text(pk_child *c, double wait, char *buf, size_t size);
/* Ends it: its input closed, up to grace seconds to leave, then SIGKILL to its group;
 * reaped, descriptors closed. Safe on a child never started or already stopped. */
void child_stop(pk_child *c, double grace);
/* The last line of its standard error (empty when it wrote none), for messages. */
const char *child_last_words(pk_child *c, char *buf, size_t size);

/* Seconds on a monotonic clock. */
double child_now(void);

#endif
