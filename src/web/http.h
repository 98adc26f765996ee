/* The HTTP side of `pdnkit serve`: a server on an address and port that hands each GET
 * request (path and query arguments, already decoded) to a handler and sends back what
 * it answers. The only file that sees the HTTP library (GNU libmicrohttpd): the rest of
 * the web layer sees these few types. */
#ifndef PK_HTTP_H
#define PK_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_MAX_ARGS 32

typedef struct {
	const char *method;          /* "GET", "HEAD", ... */
	const char *path;            /* decoded, without the query */
	int nargs;                   /* the query's arguments, in order (at most HTTP_MAX_ARGS;
				      * more mark the request too_many) */
	const char *name[HTTP_MAX_ARGS], *value[HTTP_MAX_ARGS];
	bool too_many;
	bool nul_arg;                /* a name or value holds a NUL byte (%00) */
	bool has_body;               /* a body came with it (the API takes none) */
	bool own_header;             /* it carries "X-Pdnkit: 1", which a page of another site
				      * cannot send without being allowed (the requests that
				      * change the store ask for it) */
	const char *peer;            /* the client's address, for the log */
	const char *host;            /* the Host header (NULL: none) */
	const char *origin;          /* the Origin header (NULL: none) */
	int fd;                      /* the connection's socket (for http_client_gone) */
} http_request;

/* Whether the client has closed its side of the connection (it left while a long
 * request was answered). */
bool http_client_gone(const http_request *rq);

typedef struct {
	int status;
	const char *type;            /* Content-Type */
	char *body;                  /* owned (freed after sending) unless is_static */
	size_t len;
	bool is_static;
	const char *cache;           /* Cache-Control; NULL: no-store */
} http_response;

/* Fills rs; runs on the connection's own thread (several at a time). */
typedef void (*http_handler)(void *ctx, const http_request *rq, http_response *rs);

typedef struct {
	const char *bind;            /* numeric IPv4 or IPv6 address (NULL: 127.0.0.1) */
	int port;                    /* 0: any free port (see http_port) */
	int max_connections;         /* more are refused */
	int timeout;                 /* seconds a connection may stay idle */
	int per_ip;                  /* connections of one client address at a time (default 64) */
	int header_time;             /* seconds a request's line and headers may take to
				      * arrive, however slowly they trickle (default 10) */
} http_opts;

typedef struct http_server http_server;

/* Listen and serve on threads of its own. NULL with the reason in err. */
http_server *http_start(const http_opts *o, http_handler h, void *ctx, char *err, size_t errsize);
int http_port(const http_server *s);
/* Stop accepting, finish the requests under way, free. */
void http_stop(http_server *s);

#endif
