/* What keeps `pdnkit serve` safe beyond the HTTP library (see internal.h): the host a
 * request names and the origin of a POST (DNS rebinding), the arguments each call takes,
 * and the watch over a long request (the server stopping, its client leaving, a
 * deadline). */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "base/pool.h"
#include "web/internal.h"

/* --- long requests: stopped when the server stops, the client leaves, or time is up --- */


static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *guard_run(void *arg)
{
	guard *g = arg;
	pthread_mutex_lock(&g->mu);
	while (!g->done) {
		int why = g->w->stop ? GUARD_STOPPING : g->deadline > 0 && mono_now() > g->deadline ? GUARD_TIME :
			  http_client_gone(g->rq) ? GUARD_GONE : GUARD_NONE;
		if (why) {
			g->why = why;
			g->stop = 1;
			break;
		}
		pool_wait(&g->cv, &g->mu, 0.05);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

void guard_start(guard *g, pk_web *w, const http_request *rq, double seconds)
{
	memset(g, 0, sizeof *g);
	g->w = w;
	g->rq = rq;
	g->deadline = seconds > 0 ? mono_now() + seconds : 0;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->running = pthread_create(&g->t, NULL, guard_run, g) == 0;
	if (!g->running && w->stop)
		g->stop = 1;
}

void guard_end(guard *g)
{
	pthread_mutex_lock(&g->mu);
	g->done = 1;
	pthread_cond_signal(&g->cv);
	pthread_mutex_unlock(&g->mu);
	if (g->running)
		pthread_join(g->t, NULL);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
}

/* The host part of a Host header or of an origin's authority ("name", "name:port",
 * "[v6]:port"), lower-cased, without a final dot; false when malformed. */
static bool host_name(const char *h, size_t n, char *out, size_t size)
{
	const char *end = h + n;
	const char *b = h, *e;
	if (n && *h == '[') {
		b = h + 1;
		e = memchr(b, ']', n - 1);
		if (!e || (e + 1 < end && e[1] != ':'))
			return false;
	} else {
		e = memchr(h, ':', n);
		if (!e)
			e = end;
	}
	size_t k = (size_t)(e - b);
	if (!k || k >= size)
		return false;
	for (size_t i = 0; i < k; i++) {
		char c = b[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      c == ':' || c == '_'))
			return false;
		out[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	if (k > 1 && out[k - 1] == '.')
		k--;
	out[k] = 0;
	return true;
}

/* At most size - 1 bytes of s for a message, printable ASCII only (others as '?'). */
void json_safe_name(const char *s, char *out, size_t size)
{
	size_t k = 0;
	for (; s[k] && k + 1 < size; k++)
		out[k] = s[k] >= 0x20 && s[k] < 0x7f ? s[k] : '?';
	out[k] = 0;
	if (s[k] && size > 4)
		memcpy(out + size - 4, "...", 4);
}

/* Whether the Origin of a request is the page's own: http:// and the Host it asks. */
bool origin_same(const http_request *rq)
{
	const char *o = rq->origin;
	if (strncasecmp(o, "http://", 7) != 0 || !rq->host)
		return false;
	return strcasecmp(o + 7, rq->host) == 0;
}

/* Whether a request may name this host: a numeric address (a DNS rebinding needs a
 * name), localhost, or a name the server was given (--allow-host). */
bool host_allowed(const pk_web *w, const char *host)
{
	char name[256];
	if (!host_name(host, strlen(host), name, sizeof name))
		return false;
	unsigned char a[16];
	if (inet_pton(AF_INET, name, a) == 1 || inet_pton(AF_INET6, name, a) == 1 || !strcmp(name, "localhost"))
		return true;
	for (int i = 0; i < w->o.nhosts; i++) {
		char given[256];
		if (host_name(w->o.hosts[i], strlen(w->o.hosts[i]), given, sizeof given) && !strcmp(given, name))
			return true;
	}
	return false;
}

/* The arguments each call takes (a request with another is refused: a misspelt filter
 * would otherwise be ignored without a word). */
#define FILTER_ARGS "player", "black", "white", "event", "site", "result", "from", "to", "opening", "min_plies", \
	"max_plies", "fen", "moves", "variant"
static const struct {
	const char *call;
	const char *args[20];
} call_args[] = {
	{ "games", { FILTER_ARGS, "limit", "offset", "order", "desc" } },
	{ "game", { "id" } },
	{ "export", { FILTER_ARGS } },
	{ "explorer", { FILTER_ARGS } },
	{ "stats", { FILTER_ARGS } },
	{ "players", { FILTER_ARGS, "limit" } },
	{ "position", { "fen", "moves", "variant" } },
	{ "egdb", { "fen", "moves" } },
	{ "analyse", { "fen", "moves", "time", "variant", "lines", "each" } },
	{ "analyze", { "fen", "moves", "time", "variant", "lines", "each" } },
	{ "info", { NULL } },
	{ "annotate", { "id" } },
	{ "alias", { "spelling", "player" } },
};

bool args_known(req *r, const char *call)
{
	for (size_t i = 0; i < sizeof call_args / sizeof call_args[0]; i++) {
		if (strcmp(call, call_args[i].call) != 0)
			continue;
		for (int a = 0; a < r->rq->nargs; a++) {
			bool known = false;
			for (int k = 0; k < 20 && call_args[i].args[k]; k++)
				known |= strcmp(r->rq->name[a], call_args[i].args[k]) == 0;
			if (!known) {
				char list[400] = "", safe[80];
				size_t n = 0;
				for (int k = 0; k < 20 && call_args[i].args[k] && n < sizeof list; k++)
					n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "", call_args[i].args[k]);
				json_safe_name(r->rq->name[a], safe, sizeof safe);
				return req_fail(r, 400, "/api/%s takes no argument '%s' (%s)", call, safe, n ? list : "it takes none");
			}
		}
		return true;
	}
	return true;   /* an unknown call: answered 404 by the routing */
}

