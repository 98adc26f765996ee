/* The server on GNU libmicrohttpd (see http.h): a thread for each connection, so that a
 * slow request (an engine analysis) never holds up another; connections beyond the
 * limit are refused, idle ones closed after the timeout, and request headers bounded by
 * the connection's memory limit (a longer request is answered 414 or 431 by the
 * library). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "web/http.h"

struct http_server {
	struct MHD_Daemon *d;
	http_handler h;
	void *ctx;
	int port;
};

static enum MHD_Result one_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind;
	http_request *rq = cls;
	if (rq->nargs == HTTP_MAX_ARGS) {
		rq->too_many = true;
		return MHD_NO;
	}
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
	http_request rq;
	memset(&rq, 0, sizeof rq);
	rq.method = method;
	rq.path = url;
	rq.has_body = *con_cls == &body_marker;
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, one_arg, &rq);
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
	s->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, on_request, s,
				MHD_OPTION_SOCK_ADDR, sa,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)(o->max_connections > 0 ? o->max_connections : 256),
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(o->timeout > 0 ? o->timeout : 30),
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
				MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				MHD_OPTION_EXTERNAL_LOGGER, no_log, NULL,
				MHD_OPTION_END);
	if (!s->d) {
		snprintf(err, errsize, "cannot listen on %s port %d (in use, or not an address of this machine?)", bind, o->port);
		free(s);
		return NULL;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = di ? di->port : o->port;
	return s;
}

int http_port(const http_server *s) { return s->port; }

void http_stop(http_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);
	free(s);
}
