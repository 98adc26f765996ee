/* The JSON API and the built-in pages of `pdnkit serve` (see web.h): the routing, the
 * store's handles, the arguments, and the calls of the engine and the databases (those
 * of the store are in collection.c). Every handler reads its arguments through
 * req_arg() and its kin, which bound their length and refuses bytes that are
 * not UTF-8 or are controls; the store sees them only as a filter's values, which it
 * binds as SQL parameters. Answers are built in a pk_buf and escaped by buf_json. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include "base/pool.h"
#include "engine/gengine.h"
#include "analysis/annotate.h"
#include "base/json.h"
#include "base/utf8.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "rules/fen.h"
#include "rules/gen.h"
#include "store/store.h"
#include "store/summary.h"
#include "web/internal.h"

/* The pages, built in from src/web/static by the Makefile. */
extern const char web_index_html[], web_app_js[], web_app_css[];
extern const char report_css[];

static int take_slot(pk_web *w);
static void give_slot(pk_web *w, int slot);

/* --- the store: one handle per request, kept open for the next one --- */

/* The identity of the file at path (0: there is none). */
static unsigned long long file_id_of(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 0;
	return ((unsigned long long)st.st_dev << 40) ^ (unsigned long long)st.st_ino ^ 1ull;
}

/* A handle on the store; *gen, the file's generation it belongs to. A store replaced
 * under the server (moved over, or deleted and made again) is opened anew: the handles
 * on the old file are closed as they come back. */
static pk_store *take_store(pk_web *w, unsigned *gen, char *err, size_t errsize)
{
	unsigned long long id = file_id_of(w->o.db_path);
	if (!id) {
		snprintf(err, errsize, "%s is gone (moved or deleted while served)", w->o.db_path);
		return NULL;
	}
	pthread_mutex_lock(&w->mu);
	if (id != w->file_id) {
		w->file_id = id;
		w->generation++;
		for (int i = 0; i < w->nidle; i++)
			store_close(w->idle[i]);
		w->nopen -= w->nidle;
		w->nidle = 0;
		pthread_cond_broadcast(&w->store_free);
	}
	while (!w->nidle && w->nopen >= w->o.max_stores && !w->stop)
		pthread_cond_wait(&w->store_free, &w->mu);
	pk_store *s = NULL;
	if (w->nidle)
		s = w->idle[--w->nidle];
	else if (!w->stop)
		w->nopen++;   /* this thread opens one */
	*gen = w->generation;
	pthread_mutex_unlock(&w->mu);
	if (!s && !w->stop) {
		s = store_open(w->o.db_path, w->o.allow_write ? STORE_WRITE : STORE_READ, err, errsize);
		if (!s) {
			pthread_mutex_lock(&w->mu);
			w->nopen--;
			pthread_cond_signal(&w->store_free);
			pthread_mutex_unlock(&w->mu);
		}
	} else if (!s) {
		snprintf(err, errsize, "the server is stopping");
	}
	if (s)
		store_set_timeout(s, w->o.query_time);
	return s;
}

static void give_store(pk_web *w, pk_store *s, unsigned gen)
{
	if (!s)
		return;
	store_set_timeout(s, 0);
	pthread_mutex_lock(&w->mu);
	if (gen != w->generation) {
		store_close(s);   /* a handle on a file no longer served */
		w->nopen--;
	} else {
		w->idle[w->nidle++] = s;   /* nopen <= max_stores <= MAX_STORES: there is room */
	}
	pthread_cond_signal(&w->store_free);
	pthread_mutex_unlock(&w->mu);
}

/* --- arguments --- */


bool req_fail(req *r, int status, const char *fmt, ...)
{
	if (r->status)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	r->status = status;
	return false;
}

/* The value of argument name (the first given), NULL when absent; too long, not UTF-8,
 * or holding a control character: NULL and the request failed. */
const char *req_arg(req *r, const char *name, size_t max)
{
	for (int i = 0; i < r->rq->nargs; i++) {
		if (strcmp(r->rq->name[i], name) != 0)
			continue;
		const char *v = r->rq->value[i];
		size_t n = strlen(v);
		if (n > max) {
			req_fail(r, 400, "'%s' is too long (%zu bytes; at most %zu)", name, n, max);
			return NULL;
		}
		for (size_t k = 0, c; k < n; k += c) {
			uint32_t cp;
			c = utf8_char((const unsigned char *)v + k, n - k, &cp);
			if (c == 0) {
				req_fail(r, 400, "'%s' is not UTF-8 (byte %zu)", name, k + 1);
				return NULL;
			}
			if (utf8_is_control(cp) || utf8_is_bidi(cp)) {
				req_fail(r, 400, "'%s' holds a control character (byte %zu)", name, k + 1);
				return NULL;
			}
		}
		return n ? v : NULL;   /* an empty field of a form is no filter */
	}
	return NULL;
}

/* A whole number in [lo, hi]; def when absent. */
bool req_long(req *r, const char *name, long lo, long hi, long def, long *out)
{
	const char *v = req_arg(r, name, 20);
	*out = def;
	if (!v)
		return r->status == 0;
	char *end;
	long x = strtol(v, &end, 10);
	if (*end || end == v || x < lo || x > hi)
		return req_fail(r, 400, "'%s' must be a whole number from %ld to %ld", name, lo, hi);
	*out = x;
	return true;
}

bool req_bool(req *r, const char *name)
{
	const char *v = req_arg(r, name, 8);
	return v && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0);
}

/* --- positions --- */

/* One line of an analysis as JSON members (after a '{' or ','): its first move, score
 * from the side to move's view, depth, nodes, time and principal variation. */
static void json_aline(pk_buf *b, const pk_gpos *p, const pk_gresult *a)
{
	char text[400];
	gmove_format(p, &a->best, false, text, sizeof text);
	buf_str(b, "\"best\":");
	buf_json(b, text);
	int score = a->last.score;
	buf_printf(b, ",\"forced\":%s,\"depth\":%d,\"score\":%d,\"nodes\":%llu,\"seconds\":%.3f", a->forced ? "true" : "false",
		   a->last.depth, score, (unsigned long long)a->last.nodes, a->last.seconds);
	if (score_is_win(score))
		buf_printf(b, ",\"win_in\":%d", score > 0 ? score_plies(score) : -score_plies(score));
	buf_str(b, ",\"pv\":[");
	pk_gpos q = *p;
	for (int i = 0; i < a->last.npv; i++) {
		gmove_format(&q, &a->last.pv[i], false, text, sizeof text);
		buf_str(b, i ? "," : "");
		buf_json(b, text);
		pk_gpos n;
		gpos_make(&q, &a->last.pv[i], &n);
		q = n;
	}
	buf_str(b, "]");
}

/* GET /api/analyse?fen=|moves=&time=S&lines=N|each=1: a search of the position by one of
 * the engines, at most max_time seconds; with lines, the N best first moves, each searched
 * with the ones before it left out (the time shared among them); with each, every legal
 * move searched alone (the others left out; the time shared), its value for the side to
 * move (the explorer's column); 503 when every engine is busy. */
static void api_analyse(pk_web *w, req *r)
{
	pk_gpos p;
	if (!req_gposition(r, &p, NULL))
		return;
	const char *t = req_arg(r, "time", 16);
	if (r->status)
		return;
	double secs = 1.0;
	if (t) {
		char *end;
		secs = strtod(t, &end);
		if (*end || end == t || !(secs >= 0.01 && secs <= w->o.max_time))
			return (void)req_fail(r, 400, "'time' must be seconds from 0.01 to %g", w->o.max_time);
	}
	long nlines;
	if (!req_long(r, "lines", 1, 5, 1, &nlines))
		return;
	bool each = req_bool(r, "each");
	pk_gmove *all = NULL;
	int nall = 0;
	if (each) {
		if (!(all = malloc(sizeof *all * VAR_MAX_MOVES)) || (nall = gpos_gen(&p, all, VAR_MAX_MOVES)) < 0) {
			free(all);
			return (void)req_fail(r, 503, "out of memory for the analysis");
		}
		nlines = nall > 0 ? nall : 1;
	}
	if (secs > w->o.max_time)
		secs = w->o.max_time;
	if (w->o.nengines == 0)
		return (void)req_fail(r, 503, "analysis is off on this server (--searches 0)");
	/* an engine is often busy only with the search its page just left (stopped within a
	 * twentieth of a second, guard.c): waited for up to a second */
	int slot = take_slot(w);
	for (int i = 0; slot < 0 && i < 20; i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		slot = take_slot(w);
	}
	if (slot < 0) {
		free(all);
		return (void)req_fail(r, 503, "all %d engines are busy; try again in a moment", w->o.nengines);
	}
	/* the slot's English engine lent; another variant's made for this search (the slot
	 * bounds how many run) */
	pk_gresult *lines = calloc((size_t)nlines, sizeof *lines);
	pk_vengine *ve = p.v ? vengine_new(16) : NULL;
	pk_gengine *ge = lines && (!p.v || ve) ? gengine_lend(w->o.engines[slot], ve) : NULL;
	if (!ge) {
		if (!lines || (p.v && !ve))
			vengine_free(ve);
		free(lines);
		free(all);
		give_slot(w, slot);
		return (void)req_fail(r, 503, "out of memory for the analysis");
	}
	pk_limits lim = { .movetime = secs / (double)nlines };
	pk_history h = { 0 };
	pk_gmove ex[5];
	pk_gmove *others = each && nall > 1 ? malloc(sizeof *others * (size_t)nall) : NULL;
	int got = 0;
	guard g;
	gengine_new_game(ge);
	guard_start(&g, w, r->rq, 0);
	for (int k = 0; k < nlines && !g.stop; k++) {
		const pk_gmove *x = ex;
		int nx = k;
		if (each && nall > 1) {
			if (!others)
				break;
			/* every move but the k-th left out */
			nx = 0;
			for (int i = 0; i < nall; i++)
				if (i != k)
					others[nx++] = all[i];
			x = others;
		}
		if (gengine_search(ge, &p, &h, &lim, x, nx, &g.stop, NULL, NULL, &lines[k]) < 0 || !lines[k].has_move)
			break;
		if (k < 5)
			ex[k] = lines[k].best;
		got++;
		if (lines[k].forced)
			break;   /* the only move: no other line */
	}
	guard_end(&g);
	gengine_free(ge);
	give_slot(w, slot);
	free(others);
	free(all);
	if (g.why == GUARD_STOPPING || g.why == GUARD_GONE) {
		free(lines);
		return (void)req_fail(r, 503, g.why == GUARD_STOPPING ? "the server is stopping: the analysis was cut short"
								     : "the client left: the analysis was stopped");
	}
	/* the best first, the later lines searched apart from it */
	for (int i = 1; i < got; i++)
		for (int j = i; j > 0 && lines[j].last.score > lines[j - 1].last.score; j--) {
			pk_gresult x = lines[j];
			lines[j] = lines[j - 1];
			lines[j - 1] = x;
		}
	char fen[VAR_FEN_STRLEN];
	gpos_fen(&p, fen, sizeof fen);
	pk_buf *b = r->out;
	buf_str(b, "{\"fen\":");
	buf_json(b, fen);
	if (got == 0) {
		free(lines);
		buf_str(b, ",\"best\":null,\"score\":null,\"pv\":[],\"lines\":[],\"result\":\"the side to move has no move: it has lost\"}");
		return;
	}
	/* the first line's members at the top (as with one line), then every line */
	buf_str(b, ",");
	json_aline(b, &p, &lines[0]);
	buf_str(b, ",\"lines\":[");
	for (int k = 0; k < got; k++) {
		buf_str(b, k ? ",{" : "{");
		json_aline(b, &p, &lines[k]);
		buf_str(b, "}");
	}
	free(lines);
	buf_str(b, "],\"egdb\":");
	web_json_gegdb(w, r, &p);
	buf_str(b, "}");
}

/* GET /api/info: what this server offers. */
static void api_info(pk_web *w, req *r)
{
	long hits, misses;
	cache_counts(w->cache, &hits, &misses);
	buf_printf(r->out, "{\"version\":\"%s\",\"writable\":%s,\"annotate\":%s,\"searches\":%d,\"max_time\":%g,\"egdb_pieces\":%d,"
		   "\"cache\":{\"hits\":%ld,\"misses\":%ld}}",
		   PK_VERSION, w->o.allow_write ? "true" : "false", w->o.allow_write && w->o.annotate ? "true" : "false",
		   w->o.nengines, w->o.max_time, w->o.egdb ? egdb_pieces(w->o.egdb) : 0, hits, misses);
}

static int take_slot(pk_web *w)
{
	int slot = -1;
	pthread_mutex_lock(&w->mu);
	for (int i = 0; i < w->o.nengines && i < MAX_ENGINES; i++)
		if (!w->busy[i]) {
			w->busy[i] = true;
			slot = i;
			break;
		}
	pthread_mutex_unlock(&w->mu);
	return slot;
}

static void give_slot(pk_web *w, int slot)
{
	pthread_mutex_lock(&w->mu);
	w->busy[slot] = false;
	pthread_mutex_unlock(&w->mu);
}

/* POST /api/annotate?id=N: annotate a stored game with the server's settings and store
 * it (only with --allow-write): one annotation at a time, apart from the analysis
 * slots, within --max-time seconds in all; stopped, with nothing stored, when the time
 * is up, the client leaves or the server stops. */
static void api_annotate(pk_web *w, req *r, pk_store *s)
{
	long id;
	if (!req_long(r, "id", 1, 2000000000L, 0, &id))
		return;
	if (!id)
		return (void)req_fail(r, 400, "'id' is needed: the game's number");
	if (!w->o.allow_write || !w->o.annotate)
		return (void)req_fail(r, 403, "this server does not change the store (start it with --allow-write)");
	if (!r->rq->own_header)
		return (void)req_fail(r, 403, "a request that changes the store must carry the header X-Pdnkit: 1");
	pthread_mutex_lock(&w->mu);
	bool mine = !w->annotating;
	w->annotating = true;
	pthread_mutex_unlock(&w->mu);
	if (!mine)
		return (void)req_fail(r, 503, "another game is being annotated; try again in a moment");
	pk_batch_opts bo = *w->o.annotate;
	char settings[1024], err[600];
	batch_settings(&bo, 0u, settings, sizeof settings);
	guard g;
	guard_start(&g, w, r->rq, w->o.max_time);
	bo.store = s;
	bo.read_back = false;
	bo.threads = 1;
	bo.stop = &g.stop;
	bo.on_game = NULL;
	bo.on_error = NULL;
	bo.on_progress = NULL;
	bo.ctx = NULL;
	pk_filter f;
	filter_init(&f);
	f.id = id;
	long count = 0;
	pk_batch *b = NULL;
	if (store_count(s, &f, &count) < 0 || store_annotation_run(s, settings, "pdnkit " PK_VERSION, &bo.run) < 0)
		req_fail(r, 500, "%s", store_error(s));
	else if (!count)
		req_fail(r, 404, "no game %ld in the store", id);
	else if (!(b = batch_new(&bo, err, sizeof err)))
		req_fail(r, 503, "%s", err);
	else {
		pk_source src = { .store = s, .filter = &f, .stop = &g.stop };
		int st = batch_run(b, &src);
		bool done = batch_counts(b)->annotated > 0;
		guard_end(&g);
		if (!done && g.why == GUARD_TIME)
			req_fail(r, 503, "the annotation took longer than this server allows (--max-time %g s): nothing stored; "
					 "annotate it with pdnkit annotate", w->o.max_time);
		else if (!done && g.why == GUARD_STOPPING)
			req_fail(r, 503, "the server is stopping: the annotation was not finished and nothing was stored");
		else if (!done && g.why == GUARD_GONE)
			req_fail(r, 503, "the client left: the annotation was stopped and nothing was stored");
		else if (st < 0)
			req_fail(r, 500, "%s", batch_error(b));
		else
			buf_printf(r->out, "{\"id\":%ld,\"run\":%lld,\"annotated\":%s,\"settings\":", id, (long long)bo.run,
				   done ? "true" : "false");
		if (!r->status) {
			buf_json(r->out, settings);
			buf_str(r->out, "}");
		}
	}
	if (!b)
		guard_end(&g);
	batch_free(b);
	pthread_mutex_lock(&w->mu);
	w->annotating = false;
	pthread_mutex_unlock(&w->mu);
}

/* POST /api/alias?spelling=S&player=P: S becomes one more spelling of P (only with
 * --allow-write), as `pdnkit players --alias S=P`. */
static void api_alias(pk_web *w, req *r, pk_store *s)
{
	const char *sp = req_arg(r, "spelling", 200), *pl = r->status ? NULL : req_arg(r, "player", 200);
	if (r->status)
		return;
	if (!sp || !pl)
		return (void)req_fail(r, 400, "'spelling' and 'player' are needed: the spelling becomes one of the player's");
	if (!w->o.allow_write)
		return (void)req_fail(r, 403, "this server does not change the store (start it with --allow-write)");
	if (!r->rq->own_header)
		return (void)req_fail(r, 403, "a request that changes the store must carry the header X-Pdnkit: 1");
	long rekeyed;
	if (store_add_alias(s, sp, pl, &rekeyed) < 0)
		return (void)req_fail(r, strstr(store_error(s), "already a spelling") || strstr(store_error(s), "holds no name") ? 400 : 500,
				  "%s", store_error(s));
	buf_str(r->out, "{\"spelling\":");
	buf_json(r->out, sp);
	buf_str(r->out, ",\"player\":");
	buf_json(r->out, pl);
	buf_printf(r->out, ",\"games_changed\":%ld}", rekeyed);
}

/* --- routing --- */

static void set_error(http_response *rs, pk_buf *b, int status, const char *msg)
{
	b->n = 0;
	b->failed = false;
	buf_str(b, "{\"error\":");
	buf_json(b, msg);
	buf_printf(b, ",\"status\":%d}\n", status);
	rs->status = status;
	rs->type = "application/json";
}

static void on_request(void *ctx, const http_request *rq, http_response *rs)
{
	pk_web *w = ctx;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pk_buf b;
	buf_init(&b);
	req r = { .rq = rq, .out = &b };
	web_cache_slot *ce = NULL;   /* the slot this request makes an answer in */
	const char *path = rq->path;
	bool head = strcmp(rq->method, "HEAD") == 0;
	static const struct {
		const char *path, *type;
		const char *body;
	} pages[] = {
		{ "/", "text/html; charset=utf-8", web_index_html },
		{ "/index.html", "text/html; charset=utf-8", web_index_html },
		{ "/app.js", "text/javascript; charset=utf-8", web_app_js },
		{ "/app.css", "text/css; charset=utf-8", web_app_css },
		{ "/report.css", "text/css; charset=utf-8", report_css },
	};
	bool changes = !strcmp(path, "/api/annotate") || !strcmp(path, "/api/alias");
	bool post = strcmp(rq->method, "POST") == 0 && changes;
	char safe_host[80];
	if (rq->host && !host_allowed(w, rq->host)) {
		json_safe_name(rq->host, safe_host, sizeof safe_host);
		req_fail(&r, 403, "this server is not reached by the name '%s' (a page of another site?); "
				  "pdnkit serve --allow-host NAME serves it under a name of its own", safe_host);
	} else if (post && rq->origin && !origin_same(rq)) {
		/* a browser sends the page's origin with every POST: one of another site is
		 * refused (a program that sends none is not a page) */
		json_safe_name(rq->origin, safe_host, sizeof safe_host);
		req_fail(&r, 403, "a request that changes the store must come from this server's own pages, not from '%s'",
			 safe_host);
	} else if (strcmp(rq->method, "GET") != 0 && !head && !post) {
		req_fail(&r, 405, "only GET and HEAD are served (and POST for /api/annotate and /api/alias)");
	} else if (!post && changes) {
		req_fail(&r, 405, "%s changes the store: POST it", path + 5);
	} else if (rq->has_body) {
		req_fail(&r, 400, "a GET request takes no body");
	} else if (rq->too_many) {
		req_fail(&r, 400, "too many arguments (at most %d)", HTTP_MAX_ARGS);
	} else if (rq->nul_arg) {
		req_fail(&r, 400, "an argument holds a NUL byte (%%00)");
	} else if (!strncmp(path, "/api/", 5) && !args_known(&r, path + 5)) {
		;   /* refused */
	} else if (strncmp(path, "/api/", 5) != 0) {
		for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
			if (strcmp(path, pages[i].path) == 0) {
				rs->status = 200;
				rs->type = pages[i].type;
				rs->body = (char *)pages[i].body;
				rs->len = head ? 0 : strlen(pages[i].body);
				rs->is_static = true;
				rs->cache = "no-cache";
				goto log;
			}
		req_fail(&r, 404, "no such page");
	} else {
		const char *api = path + 5;
		static const char *const with_store[] = { "games", "game", "explorer", "stats", "players", "annotate", "alias",
							  "export" };
		bool needs_store = false;
		for (size_t i = 0; i < sizeof with_store / sizeof with_store[0]; i++)
			needs_store |= strcmp(api, with_store[i]) == 0;
		if (needs_store && !post) {
			/* an answer kept for this store as it is now */
			char *key = cache_key(api, rq), *kept = NULL;
			size_t kept_len = 0;
			if (key)
				ce = cache_get(w->cache, key, cache_file_version(w->o.db_path), w->o.query_time + 5, &kept, &kept_len);
			if (kept) {
				buf_free(&b);
				rs->status = 200;
				rs->type = "application/json";
				rs->body = kept;
				rs->len = head ? 0 : kept_len;
				goto log;
			}
		}
		if (needs_store) {
			char err[512];
			unsigned gen = 0;
			pk_store *s = take_store(w, &gen, err, sizeof err);
			if (!s) {
				req_fail(&r, 503, "the store cannot be opened: %s", err);
			} else {
				if (!strcmp(api, "games"))
					collection_games(w, &r, s);
				else if (!strcmp(api, "game"))
					collection_game(w, &r, s);
				else if (!strcmp(api, "explorer"))
					collection_explorer(w, &r, s);
				else if (!strcmp(api, "stats"))
					collection_stats(w, &r, s);
				else if (!strcmp(api, "annotate"))
					api_annotate(w, &r, s);
				else if (!strcmp(api, "alias"))
					api_alias(w, &r, s);
				else if (!strcmp(api, "export"))
					collection_export(w, &r, s);
				else
					collection_players(w, &r, s);
				give_store(w, s, gen);
			}
		} else if (!strcmp(api, "position")) {
			api_position(w, &r);
		} else if (!strcmp(api, "info")) {
			api_info(w, &r);
		} else if (!strcmp(api, "egdb")) {
			api_egdb(w, &r);
		} else if (!strcmp(api, "analyse") || !strcmp(api, "analyze")) {
			api_analyse(w, &r);
		} else {
			req_fail(&r, 404, "no such API call (info, games, game, export, position, explorer, stats, players, egdb, analyse, annotate, alias)");
		}
	}
	if (!r.status && b.failed)
		req_fail(&r, 503, "out of memory");
	if (r.status == 500 && strstr(r.error, "interrupted: it took longer"))
		r.status = 503;
	if (r.status) {
		set_error(rs, &b, r.status, r.error);
	} else {
		buf_str(&b, "\n");
		rs->status = 200;
		rs->type = "application/json";
	}
	if (ce) {
		cache_put(w->cache, ce, rs->status == 200 && !b.failed ? b.p : NULL, b.n);
		ce = NULL;
	}
	if (b.failed) {
		buf_free(&b);
		rs->status = 503;
		rs->body = (char *)"{\"error\":\"out of memory\",\"status\":503}\n";
		rs->len = strlen(rs->body);
		rs->is_static = true;
	} else {
		rs->body = b.p ? b.p : strdup("");
		rs->len = head ? 0 : b.n;
		if (!rs->body) {
			rs->body = (char *)"";
			rs->is_static = true;
		}
	}
log:
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_mutex_lock(&w->mu);
	w->served++;
	if (w->o.on_request)
		w->o.on_request(w->o.ctx, rq->peer, rq->method, path, rs->status, rs->len,
				(double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	pthread_mutex_unlock(&w->mu);
}

pk_web *web_start(const pk_web_opts *o, char *err, size_t errsize)
{
	pk_web *w = calloc(1, sizeof *w);
	if (!w) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	w->o = *o;
	if (w->o.nengines > MAX_ENGINES)
		w->o.nengines = MAX_ENGINES;
	if (!(w->o.max_time > 0))
		w->o.max_time = 10;
	if (!(w->o.query_time > 0))
		w->o.query_time = 10;
	if (w->o.max_stores <= 0)
		w->o.max_stores = 8;
	if (w->o.max_stores > MAX_STORES)
		w->o.max_stores = MAX_STORES;
	if (!(w->cache = cache_new())) {
		snprintf(err, errsize, "out of memory");
		free(w);
		return NULL;
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->store_free, NULL);
	/* the store must open now: a wrong path is said at once, not on the first request */
	pk_store *s = store_open(o->db_path, o->allow_write ? STORE_WRITE : STORE_READ, err, errsize);
	if (!s) {
		cache_free(w->cache);
		pthread_cond_destroy(&w->store_free);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	w->nopen = 1;
	w->file_id = file_id_of(o->db_path);
	give_store(w, s, w->generation);
	http_opts ho = { .bind = o->bind, .port = o->port, .max_connections = o->max_connections, .timeout = o->timeout,
			 .per_ip = o->per_ip, .header_time = o->header_time };
	w->http = http_start(&ho, on_request, w, err, errsize);
	if (!w->http) {
		store_close(w->idle[0]);
		cache_free(w->cache);
		pthread_cond_destroy(&w->store_free);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

int web_port(const pk_web *w) { return http_port(w->http); }

void web_stop(pk_web *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_broadcast(&w->store_free);
	pthread_mutex_unlock(&w->mu);
	http_stop(w->http);
	for (int i = 0; i < w->nidle; i++)
		store_close(w->idle[i]);
	cache_free(w->cache);
	pthread_cond_destroy(&w->store_free);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
