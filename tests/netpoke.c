/* A hostile or scripted network client for the tests, on 127.0.0.1:
 *   netpoke trickle PORT INTERVAL MAX   an HTTP request whose header lines come one every
 *                                       INTERVAL seconds; prints the seconds until the
 *                                       server closed it (MAX when it never did)
 *   netpoke silent PORT N SECONDS       N connections that say nothing; after SECONDS,
 *                                       prints "open K": how many the server still holds
 *   netpoke dxp PORT WAIT MSG...        DXP messages sent in turn (each ended by a NUL),
 *                                       then what comes back within WAIT seconds, a message
 *                                       a line; "-" as a MSG closes the connection at once
 *   netpoke http PORT WAIT REQUEST      REQUEST (\r\n written as \n) sent as is; prints
 *                                       the answer's first line */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dial(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Whether the server has closed fd (waiting at most ms). */
static int closed(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
	if (poll(&p, 1, ms) <= 0)
		return 0;
	if (p.revents & (POLLHUP | POLLERR | POLLRDHUP))
		return 1;
	char buf[4096];
	ssize_t k = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
	return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

static int trickle(int port, double interval, double most)
{
	int fd = dial(port);
	if (fd < 0)
		return printf("refused\n"), 0;
	double t0 = now();
	const char *first = "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n";
	if (send(fd, first, strlen(first), MSG_NOSIGNAL) < 0)
		return printf("0\n"), 0;
	int n = 0;
	while (now() - t0 < most) {
		if (closed(fd, (int)(interval * 1000))) {
			printf("%.0f\n", now() - t0);
			return 0;
		}
		char line[64];
		int k = snprintf(line, sizeof line, "X-Slow-%d: a\r\n", n++);
		if (send(fd, line, (size_t)k, MSG_NOSIGNAL) < 0) {
			printf("%.0f\n", now() - t0);
			return 0;
		}
	}
	printf("%.0f\n", most);
	return 0;
}

static int silent(int port, int n, double secs)
{
	int *fd = calloc((size_t)(n > 0 ? n : 1), sizeof *fd);
	if (!fd)
		return 1;
	for (int i = 0; i < n; i++)
		fd[i] = dial(port);
	double t0 = now();
	int open = 0;
	while (now() - t0 < secs)
		usleep(50000);
	for (int i = 0; i < n; i++) {
		open += fd[i] >= 0 && !closed(fd[i], 0);
		if (fd[i] >= 0)
			close(fd[i]);
	}
	free(fd);
	printf("open %d\n", open);
	return 0;
}

static int dxp(int port, double wait, int nmsg, char **msgs)
{
	int fd = dial(port);
	if (fd < 0)
		return printf("refused\n"), 1;
	for (int i = 0; i < nmsg; i++) {
		if (!strcmp(msgs[i], "-")) {
			close(fd);
			return 0;
		}
		if (send(fd, msgs[i], strlen(msgs[i]) + 1, MSG_NOSIGNAL) < 0)
			return printf("gone\n"), 1;
		usleep(100000);
	}
	double t0 = now();
	char buf[8192];
	size_t len = 0;
	while (now() - t0 < wait) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		ssize_t k = recv(fd, buf + len, sizeof buf - len - 1, 0);
		if (k <= 0)
			break;
		len += (size_t)k;
	}
	for (size_t i = 0; i < len; i++)
		putchar(buf[i] ? buf[i] : '\n');
	close(fd);
	return 0;
}

static int http(int port, double wait, const char *req)
{
	int fd = dial(port);
	if (fd < 0)
		return printf("refused\n"), 1;
	char out[8192];
	size_t k = 0;
	for (const char *p = req; *p && k + 2 < sizeof out; p++) {
		if (*p == '\n')
			out[k++] = '\r';
		out[k++] = *p;
	}
	send(fd, out, k, MSG_NOSIGNAL);
	char buf[4096];
	size_t len = 0;
	double t0 = now();
	while (now() - t0 < wait && len < sizeof buf - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		ssize_t r = recv(fd, buf + len, sizeof buf - len - 1, 0);
		if (r <= 0)
			break;
		len += (size_t)r;
		if (memchr(buf, '\n', len))
			break;
	}
	buf[len] = 0;
	char *e = strchr(buf, '\r');
	if (e)
		*e = 0;
	printf("%s\n", len ? buf : "(nothing)");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 5 && !strcmp(argv[1], "trickle"))
		return trickle(atoi(argv[2]), atof(argv[3]), atof(argv[4]));
	if (argc >= 5 && !strcmp(argv[1], "silent"))
		return silent(atoi(argv[2]), atoi(argv[3]), atof(argv[4]));
	if (argc >= 4 && !strcmp(argv[1], "dxp"))
		return dxp(atoi(argv[2]), atof(argv[3]), argc - 4, argv + 4);
	if (argc >= 5 && !strcmp(argv[1], "http"))
		return http(atoi(argv[2]), atof(argv[3]), argv[4]);
	fprintf(stderr, "usage: netpoke trickle|silent|dxp|http PORT ...\n");
	return 2;
}
