/* The server on GNU libmicrohttpd (see http.h): a thread for each connection, so that a
 * slow request (an engine analysis) never holds up another; connections beyond the
 * limit (in all, and of one client address) are refused, idle ones closed after the
 * timeout, a request whose line and headers have not all arrived within the header
 * time is cut off by a watchdog (a client that trickles a header line at a time never
 * looks idle), and request headers are bounded by the connection's memory limit (a
 * longer request is answered 414 or 431 by the library). */
#define _GNU_SOURCE   /* POLLRDHUP */
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "base/pool.h"
#include "web/http.h"

/* A connection as the watchdog sees it: waiting while its request has not all arrived. */
typedef struct watch {
	int fd;
	double since;
	bool waiting, cut;
	struct watch *prev, *next;
} watch;

struct http_server {
	struct MHD_Daemon *d;
	http_handler h;
	void *ctx;
	int port;
	int header_time;
	pthread_mutex_t mu;
	pthread_cond_t wake;
	watch *conns;
	bool stopping, dog_running;
	pthread_t dog;
	int answering;               /* requests answered whose answer is not all sent */
	pthread_cond_t sent;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	http_server *s = cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		watch *w = calloc(1, sizeof *w);
		if (!w || !ci) {
			free(w);
			*socket_context = NULL;
			return;
		}
		w->fd = ci->connect_fd;
		w->since = now_s();
		w->waiting = true;
		pthread_mutex_lock(&s->mu);
		w->next = s->conns;
		if (s->conns)
			s->conns->prev = w;
		s->conns = w;
		pthread_mutex_unlock(&s->mu);
		*socket_context = w;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		watch *w = *socket_context;
		if (!w)
			return;
		pthread_mutex_lock(&s->mu);
		if (w->prev)
			w->prev->next = w->next;
		else
			s->conns = w->next;
		if (w->next)
			w->next->prev = w->prev;
		pthread_mutex_unlock(&s->mu);
		free(w);
		*socket_context = NULL;
	}
}

/* A connection's request has all arrived (waiting false), or a new one may begin on it. */
static void set_waiting(http_server *s, struct MHD_Connection *c, bool waiting)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	watch *w = ci ? ci->socket_context : NULL;
	if (!w)
		return;
	pthread_mutex_lock(&s->mu);
	w->waiting = waiting;
	w->since = now_s();
	pthread_mutex_unlock(&s->mu);
}

static int answered_marker;

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	(void)toe;
	http_server *s = cls;
	if (*con_cls == &answered_marker) {
		pthread_mutex_lock(&s->mu);
		s->answering--;
		pthread_cond_broadcast(&s->sent);
		pthread_mutex_unlock(&s->mu);
	}
	*con_cls = NULL;
	set_waiting(s, c, true);   /* the next request of a kept-alive connection */
}

/* Cuts off, twice a second, the connections whose request is late: their thread then
 * reads the end of the stream and closes them. */
static void *watchdog(void *arg)
{
	http_server *s = arg;
	pthread_mutex_lock(&s->mu);
	while (!s->stopping) {
		double t = now_s();
		for (watch *w = s->conns; w; w = w->next)
			if (w->waiting && !w->cut && t - w->since > s->header_time) {
				shutdown(w->fd, SHUT_RDWR);
				w->cut = true;
			}
		pool_wait(&s->wake, &s->mu, 0.5);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

bool http_client_gone(const http_request *rq)
{
	if (rq->fd < 0)
		return false;
	struct pollfd p = { .fd = rq->fd, .events = POLLIN | POLLRDHUP };
	if (poll(&p, 1, 0) <= 0)
		return false;
	if (p.revents & (POLLHUP | POLLERR | POLLRDHUP | POLLNVAL))
		return true;
	char c;
	return (p.revents & POLLIN) && recv(rq->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

static enum MHD_Result one_arg(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value,
			       size_t value_size)
{
	(void)kind;
	http_request *rq = cls;
	if (rq->nargs == HTTP_MAX_ARGS) {
		rq->too_many = true;
		return MHD_NO;
	}
	/* %00 decodes to a NUL that would end the text early: the argument is refused */
	if ((key && strlen(key) != key_size) || (value && strlen(value) != value_size))
		rq->nul_arg = true;
	rq->name[rq->nargs] = key ? key : "";
	rq->value[rq->nargs] = value ? value : "";
	rq->nargs++;
	return MHD_YES;
}

static const char *security_headers[][2] = {
	{ "X-Content-Type-Options", "nosniff" },
	{ "X-Frame-Options", "DENY" },
	{ "Referrer-Policy", "no-referrer" },
	{ "Content-Security-Policy",
	  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
	  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'" },
};

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	(void)version;
	(void)upload_data;
	http_server *s = cls;
	/* the first call only announces the request; a body comes in the calls between */
	static int seen_marker, body_marker;
	if (*con_cls == NULL) {
		*con_cls = &seen_marker;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;   /* read and dropped: the API takes no body */
		*con_cls = &body_marker;
		return MHD_YES;
	}
	bool body = *con_cls == &body_marker;
	set_waiting(s, c, false);
	pthread_mutex_lock(&s->mu);
	s->answering++;
	pthread_mutex_unlock(&s->mu);
	*con_cls = &answered_marker;
	http_request rq;
	memset(&rq, 0, sizeof rq);
	rq.fd = -1;
	const union MHD_ConnectionInfo *fi = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (fi)
		rq.fd = fi->connect_fd;
	rq.host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
	rq.origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	rq.method = method;
	rq.path = url;
	rq.has_body = body;
	MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, one_arg, &rq);
	const char *own = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Pdnkit");
	rq.own_header = own && strcmp(own, "1") == 0;
	char peer[64] = "?";
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci && ci->client_addr) {
		const struct sockaddr *sa = ci->client_addr;
		if (sa->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, peer, sizeof peer);
		else if (sa->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, peer, sizeof peer);
	}
	rq.peer = peer;
	http_response rs;
	memset(&rs, 0, sizeof rs);
	s->h(s->ctx, &rq, &rs);
	struct MHD_Response *r;
	if (rs.is_static || !rs.body)
		r = MHD_create_response_from_buffer(rs.body ? rs.len : 0, rs.body ? rs.body : (char *)"", MHD_RESPMEM_PERSISTENT);
	else
		r = MHD_create_response_from_buffer(rs.len, rs.body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		if (!rs.is_static)
			free(rs.body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", rs.type ? rs.type : "text/plain; charset=utf-8");
	MHD_add_response_header(r, "Cache-Control", rs.cache ? rs.cache : "no-store");
	for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
		MHD_add_response_header(r, security_headers[i][0], security_headers[i][1]);
	if (rs.status == 405)
		MHD_add_response_header(r, "Allow", strcmp(url, "/api/annotate") == 0 ? "POST" : "GET, HEAD");
	enum MHD_Result ret = MHD_queue_response(c, (unsigned)(rs.status ? rs.status : 500), r);
	MHD_destroy_response(r);
	return ret;
}

static void no_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;
}

http_server *http_start(const http_opts *o, http_handler h, void *ctx, char *err, size_t errsize)
{
	const char *bind = o->bind ? o->bind : "127.0.0.1";
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	struct sockaddr *sa;
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
			 MHD_USE_ERROR_LOG;
	if (o->port < 0 || o->port > 65535) {
		snprintf(err, errsize, "port %d is out of range (0 to 65535)", o->port);
		return NULL;
	}
	memset(&a4, 0, sizeof a4);
	memset(&a6, 0, sizeof a6);
	if (inet_pton(AF_INET, bind, &a4.sin_addr) == 1) {
		a4.sin_family = AF_INET;
		a4.sin_port = htons((uint16_t)o->port);
		sa = (struct sockaddr *)&a4;
	} else if (inet_pton(AF_INET6, bind, &a6.sin6_addr) == 1) {
		a6.sin6_family = AF_INET6;
		a6.sin6_port = htons((uint16_t)o->port);
		sa = (struct sockaddr *)&a6;
		flags |= MHD_USE_IPv6;
	} else {
		snprintf(err, errsize, "'%s' is not a numeric IPv4 or IPv6 address", bind);
		return NULL;
	}
	http_server *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	s->h = h;
	s->ctx = ctx;
	s->header_time = o->header_time > 0 ? o->header_time : 10;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->wake, NULL);
	pthread_cond_init(&s->sent, NULL);
	s->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, on_request, s,
				MHD_OPTION_SOCK_ADDR, sa,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)(o->max_connections > 0 ? o->max_connections : 256),
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)(o->per_ip > 0 ? o->per_ip : 64),
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(o->timeout > 0 ? o->timeout : 30),
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
				MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				MHD_OPTION_EXTERNAL_LOGGER, no_log, NULL,
				MHD_OPTION_END);
	if (!s->d) {
		snprintf(err, errsize, "cannot listen on %s port %d (in use, or not an address of this machine?)", bind, o->port);
		pthread_cond_destroy(&s->wake);
		pthread_cond_destroy(&s->sent);
		pthread_mutex_destroy(&s->mu);
		free(s);
		return NULL;
	}
	s->dog_running = pthread_create(&s->dog, NULL, watchdog, s) == 0;
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = di ? di->port : o->port;
	return s;
}

int http_port(const http_server *s) { return s->port; }

void http_stop(http_server *s)
{
	if (!s)
		return;
	/* the answers being made or sent go out first (at most 10 s): a request under way
	 * is answered, not dropped */
	pthread_mutex_lock(&s->mu);
	s->stopping = true;
	pthread_cond_signal(&s->wake);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	while (s->answering > 0)
		if (pthread_cond_timedwait(&s->sent, &s->mu, &until) != 0)
			break;
	pthread_mutex_unlock(&s->mu);
	if (s->dog_running)
		pthread_join(s->dog, NULL);
	MHD_stop_daemon(s->d);
	pthread_cond_destroy(&s->wake);
	pthread_cond_destroy(&s->sent);
	pthread_mutex_destroy(&s->mu);
	free(s);
}
