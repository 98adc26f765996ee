/* Child processes and lines of text. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "proto/child.h"

extern char **environ;

double child_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool linebuf_has_line(const pk_linebuf *lb)
{
	return memchr(lb->buf, '\n', lb->len) != NULL || lb->len == sizeof lb->buf || (lb->eof && lb->len > 0);
}

static bool take_line(pk_linebuf *lb, char *out, size_t size)
{
	if (!linebuf_has_line(lb))
		return false;
	char *nl = memchr(lb->buf, '\n', lb->len);
	size_t n = nl ? (size_t)(nl - lb->buf) : lb->len;
	size_t used = nl ? n + 1 : n;
	if (n > 0 && lb->buf[n - 1] == '\r')
		n--;
	size_t k = n < size - 1 ? n : size - 1;
	lb->overlong = k < n || !nl;
	if (lb->eof && !nl)
		lb->overlong = false;   /* a last line without its newline */
	memcpy(out, lb->buf, k);
	out[k] = 0;
	memmove(lb->buf, lb->buf + used, lb->len - used);
	lb->len -= used;
	return true;
}

/* Reads what fd has into lb: false at its end or on an error. */
static bool fill(pk_linebuf *lb, int fd)
{
	ssize_t got = read(fd, lb->buf + lb->len, sizeof lb->buf - lb->len);
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (got <= 0) {
		lb->eof = true;
		return false;
	}
	lb->len += (size_t)got;
	return true;
}

int linebuf_read(pk_linebuf *lb, int fd, char *out, size_t size, double timeout)
{
	double end = child_now() + timeout;
	for (;;) {
		if (take_line(lb, out, size))
			return 1;
		if (lb->eof)
			return -1;
		int ms = -1;
		if (timeout >= 0) {
			double left = end - child_now();
			if (left <= 0)
				return 0;
			ms = (int)(left * 1000) + 1;
		}
		struct pollfd p = { fd, POLLIN, 0 };
		int k = poll(&p, 1, ms);
		if (k < 0 && errno != EINTR)
			return -1;
		if (k > 0)
			fill(lb, fd);
	}
}

int child_start(pk_child *c, char *const argv[], char *err, size_t errsize)
{
	memset(c, 0, sizeof *c);
	c->fd = c->errfd = -1;
	int sv[2], ep[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errsize, "cannot make a socket for '%s': %s", argv[0], strerror(errno));
		return -1;
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		snprintf(err, errsize, "cannot make a pipe for '%s': %s", argv[0], strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
	posix_spawnattr_init(&at);
	sigset_t none, def;
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	int e = posix_spawnp(&c->pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(sv[1]);
	close(ep[1]);
	if (e != 0) {
		snprintf(err, errsize, "cannot start '%s': %s", argv[0], strerror(e));
		close(sv[0]);
		close(ep[0]);
		c->pid = 0;
		return -1;
	}
	c->fd = sv[0];
	c->errfd = ep[0];
	return 0;
}

int child_send(pk_child *c, const char *line)
{
	if (c->fd < 0)
		return -1;
	size_t n = strlen(line);
	char buf[8192];
	const char *p = buf;
	if (n + 1 <= sizeof buf) {
		memcpy(buf, line, n);
		buf[n++] = '\n';
	} else
		return -1;
	while (n > 0) {
		ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* What is waiting on its standard error, into the tail. */
static void drain_err(pk_child *c)
{
	if (c->errfd < 0)
		return;
	char buf[4096];
	for (;;) {
		struct pollfd p = { c->errfd, POLLIN, 0 };
		if (poll(&p, 1, 0) <= 0)
			return;
		ssize_t k = read(c->errfd, buf, sizeof buf);
		if (k <= 0) {
			close(c->errfd);
			c->errfd = -1;
			return;
		}
		size_t n = (size_t)k;
		if (n >= sizeof c->err_tail) {
			memcpy(c->err_tail, buf + n - (sizeof c->err_tail - 1), sizeof c->err_tail - 1);
			c->err_len = sizeof c->err_tail - 1;
		} else {
			if (c->err_len + n >= sizeof c->err_tail) {
				size_t drop = c->err_len + n - (sizeof c->err_tail - 1);
				memmove(c->err_tail, c->err_tail + drop, c->err_len - drop);
				c->err_len -= drop;
			}
			memcpy(c->err_tail + c->err_len, buf, n);
			c->err_len += n;
		}
		c->err_tail[c->err_len] = 0;
	}
}

int child_read_line(pk_child *c, char *out, size_t size, double timeout)
{
	if (c->fd < 0)
		return -1;
	double end = child_now() + timeout;
	for (;;) {
		/* in slices, so that its standard error never fills up and blocks it */
		double left = timeout < 0 ? 0.05 : end - child_now();
		if (left > 0.05)
			left = 0.05;
		if (left < 0)
			left = 0;
		int k = linebuf_read(&c->in, c->fd, out, size, left);
		drain_err(c);
		if (k != 0)
			return k;
		if (timeout >= 0 && child_now() >= end)
			return 0;
	}
}

bool child_exited(pk_child *c)
{
	if (c->pid <= 0)
		return true;
	if (c->reaped)
		return true;
	pid_t r = waitpid(c->pid, &c->status, WNOHANG);
	if (r == c->pid)
		c->reaped = true;
	return c->reaped;
}

bool child_wait(pk_child *c, double seconds)
{
	double end = child_now() + seconds;
	while (!child_exited(c) && child_now() < end) {
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	}
	return child_exited(c);
}

const char *child_exit_text(pk_child *c, double wait, char *buf, size_t size)
{
	if (!child_wait(c, wait))
		snprintf(buf, size, "is still running");
	else if (WIFEXITED(c->status))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(c->status));
	else if (WIFSIGNALED(c->status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
	else
		snprintf(buf, size, "ended");
	return buf;
}

const char *child_last_words(pk_child *c, char *buf, size_t size)
{
	drain_err(c);
	size_t n = c->err_len;
	while (n > 0 && (c->err_tail[n - 1] == '\n' || c->err_tail[n - 1] == '\r'))
		n--;
	size_t s = n;
	while (s > 0 && c->err_tail[s - 1] != '\n')
		s--;
	size_t k = n - s < size - 1 ? n - s : size - 1;
	memcpy(buf, c->err_tail + s, k);
	buf[k] = 0;
	for (size_t i = 0; i < k; i++)
		if ((unsigned char)buf[i] < 32 || buf[i] == 127)
			buf[i] = '?';
	return buf;
}

void child_stop(pk_child *c, double grace)
{
	if (c->fd >= 0) {
		shutdown(c->fd, SHUT_WR);
	}
	if (c->pid > 0 && !c->reaped) {
		double end = child_now() + grace;
		while (!child_exited(c) && child_now() < end) {
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
		}
		if (!c->reaped) {
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
				;
			c->reaped = true;
		}
	}
	if (c->pid > 0)
		kill(-c->pid, SIGKILL);   /* whatever it started in its group */
	drain_err(c);
	if (c->fd >= 0)
		close(c->fd);
	if (c->errfd >= 0)
		close(c->errfd);
	c->fd = c->errfd = -1;
}
