/* The JSON API and the built-in pages of `pdnkit serve` (see web.h). Every handler reads
 * its arguments through arg_*(), which bounds their length and refuses bytes that are
 * not UTF-8 or are controls; the store sees them only as a filter's values, which it
 * binds as SQL parameters. Answers are built in a pk_buf and escaped by buf_json. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>
#include "analysis/annotate.h"
#include "base/json.h"
#include "base/utf8.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "rules/fen.h"
#include "rules/gen.h"
#include "store/store.h"
#include "store/summary.h"
#include "web/http.h"
#include "web/web.h"

/* The pages, built in from src/web/static by the Makefile. */
extern const char web_index_html[], web_app_js[], web_app_css[];
extern const char report_css[];

#define MAX_STORES 64
#define CACHE_SLOTS 128               /* answers kept (least recently used go) */
#define CACHE_MAX (8u << 20)           /* bytes of one answer kept at most */
#define MAX_ENGINES 16
#define ARG_MAX 200           /* bytes of a text argument */
#define MOVES_MAX 4000        /* bytes of a move list */

struct pk_web {
	pk_web_opts o;
	http_server *http;
	pthread_mutex_t mu;
	pk_store *idle[MAX_STORES];   /* open handles not in use */
	int nidle;
	int nopen;                    /* handles open (in use or idle) */
	pthread_cond_t store_free;    /* a handle was given back */
	bool busy[MAX_ENGINES];
	volatile sig_atomic_t stop;   /* analyses stop when set */
	long served;
	/* answers of the store's calls, kept while the store is unchanged */
	pthread_mutex_t cmu;
	pthread_cond_t cache_done;    /* an answer being made was made (or given up) */
	struct cache_entry {
		char *key;                /* the call and its arguments; NULL: a free slot */
		char *body;
		size_t len;
		uint64_t version;         /* the store's, when it was made */
		uint64_t used;
		bool making;              /* a request is making it: the others wait */
	} cache[CACHE_SLOTS];
	uint64_t tick;
	long hits, misses;
};

static int take_slot(pk_web *w);
static void cache_free(pk_web *w);
static void give_slot(pk_web *w, int slot);

/* --- the store: one handle per request, kept open for the next one --- */

static pk_store *take_store(pk_web *w, char *err, size_t errsize)
{
	pthread_mutex_lock(&w->mu);
	while (!w->nidle && w->nopen >= w->o.max_stores && !w->stop)
		pthread_cond_wait(&w->store_free, &w->mu);
	pk_store *s = NULL;
	if (w->nidle)
		s = w->idle[--w->nidle];
	else if (!w->stop)
		w->nopen++;   /* this thread opens one */
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

static void give_store(pk_web *w, pk_store *s)
{
	if (!s)
		return;
	store_set_timeout(s, 0);
	pthread_mutex_lock(&w->mu);
	w->idle[w->nidle++] = s;   /* nopen <= max_stores <= MAX_STORES: there is room */
	pthread_cond_signal(&w->store_free);
	pthread_mutex_unlock(&w->mu);
}

/* --- arguments --- */

typedef struct {
	const http_request *rq;
	pk_buf *out;
	int status;
	char error[300];
} req;

static bool fail(req *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(req *r, int status, const char *fmt, ...)
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
static const char *arg(req *r, const char *name, size_t max)
{
	for (int i = 0; i < r->rq->nargs; i++) {
		if (strcmp(r->rq->name[i], name) != 0)
			continue;
		const char *v = r->rq->value[i];
		size_t n = strlen(v);
		if (n > max) {
			fail(r, 400, "'%s' is too long (%zu bytes; at most %zu)", name, n, max);
			return NULL;
		}
		for (size_t k = 0, c; k < n; k += c) {
			uint32_t cp;
			c = utf8_char((const unsigned char *)v + k, n - k, &cp);
			if (c == 0) {
				fail(r, 400, "'%s' is not UTF-8 (byte %zu)", name, k + 1);
				return NULL;
			}
			if (utf8_is_control(cp) || utf8_is_bidi(cp)) {
				fail(r, 400, "'%s' holds a control character (byte %zu)", name, k + 1);
				return NULL;
			}
		}
		return n ? v : NULL;   /* an empty field of a form is no filter */
	}
	return NULL;
}

/* A whole number in [lo, hi]; def when absent. */
static bool arg_long(req *r, const char *name, long lo, long hi, long def, long *out)
{
	const char *v = arg(r, name, 20);
	*out = def;
	if (!v)
		return r->status == 0;
	char *end;
	long x = strtol(v, &end, 10);
	if (*end || end == v || x < lo || x > hi)
		return fail(r, 400, "'%s' must be a whole number from %ld to %ld", name, lo, hi);
	*out = x;
	return true;
}

static bool arg_bool(req *r, const char *name)
{
	const char *v = arg(r, name, 8);
	return v && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0);
}

/* --- positions --- */

static void board_string(const pk_pos *p, char s[33])
{
	for (int sq = 1; sq <= 32; sq++) {
		int c;
		bool k;
		s[sq - 1] = !pos_piece_at(p, sq, &c, &k) ? '.' : c == PK_BLACK ? (k ? 'B' : 'b') : (k ? 'W' : 'w');
	}
	s[32] = 0;
}

/* The position that "fen" or "moves" names (the initial position when neither);
 * *named says whether one was given. */
static bool arg_position(req *r, pk_pos *p, bool *named)
{
	const char *fen = arg(r, "fen", ARG_MAX);
	const char *moves = arg(r, "moves", MOVES_MAX);
	if (r->status)
		return false;
	if (named)
		*named = fen || moves;
	if (fen && moves)
		return fail(r, 400, "give 'fen' or 'moves', not both");
	if (fen) {
		pk_fen_error fe;
		if (fen_parse(fen, strlen(fen), p, &fe) < 0)
			return fail(r, 400, "'fen': %s at column %zu", fe.msg, fe.offset + 1);
		const char *why = pos_impossible(p);
		if (why)
			return fail(r, 400, "'fen': %s", why);
		return true;
	}
	pos_start(p);
	if (!moves)
		return true;
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	const char *error;
	bool ok = replay_moves_text_as(moves, 21, &g, &rp, &error) >= 0;
	if (ok)
		*p = rp.nply ? rp.plies[rp.nply - 1].after : rp.start;
	else
		fail(r, 400, "'moves': %s", error);
	game_free(&g);
	replay_free(&rp);
	return ok;
}

static void json_egdb(pk_web *w, req *r, const pk_pos *p)
{
	pk_egdb_result er;
	if (!w->o.egdb || egdb_probe(w->o.egdb, p, &er) != EGDB_FOUND) {
		buf_str(r->out, "null");
		return;
	}
	buf_printf(r->out, "{\"value\":\"%s\",\"plies\":", er.value == EGDB_WIN ? "win" : er.value == EGDB_LOSS ? "loss" : "draw");
	if (er.plies >= 0)
		buf_printf(r->out, "%d}", er.plies);
	else
		buf_str(r->out, "null}");
}

static void json_move(req *r, const pk_pos *before, const pk_move *m)
{
	char text[PK_MOVE_STRLEN], fen[PK_FEN_STRLEN];
	pdn_move_string(before, m, false, text);
	pk_pos after;
	pos_make(before, m, &after);
	fen_format(&after, fen, sizeof fen);
	buf_str(r->out, "{\"move\":");
	buf_json(r->out, text);
	buf_printf(r->out, ",\"from\":%d,\"path\":[", m->from + 1);
	for (int i = 0; i < m->nland; i++)
		buf_printf(r->out, "%s%d", i ? "," : "", m->land[i] + 1);
	buf_str(r->out, "],\"fen\":");
	buf_json(r->out, fen);
	buf_str(r->out, "}");
}

/* GET /api/position?fen=|moves=: the position, its legal moves and where each leads,
 * and its value in the endgame databases. */
static void api_position(pk_web *w, req *r)
{
	pk_pos p;
	if (!arg_position(r, &p, NULL))
		return;
	char fen[PK_FEN_STRLEN], board[33];
	fen_format(&p, fen, sizeof fen);
	board_string(&p, board);
	buf_str(r->out, "{\"fen\":");
	buf_json(r->out, fen);
	buf_printf(r->out, ",\"board\":\"%s\",\"turn\":\"%s\",\"key\":\"%016llx\",\"moves\":[", board,
		   p.stm == PK_BLACK ? "black" : "white", (unsigned long long)p.key);
	pk_movelist ml;
	gen_moves(&p, &ml);
	for (int i = 0; i < ml.n; i++) {
		if (i)
			buf_str(r->out, ",");
		json_move(r, &p, &ml.m[i]);
	}
	buf_str(r->out, "],\"egdb\":");
	json_egdb(w, r, &p);
	buf_str(r->out, "}");
}

/* --- filters --- */

typedef struct {
	pk_filter f;
	char result[16];
	uint8_t opening[1024];
	pk_pos at;
	bool at_set;
} filter_buf;

static bool arg_filter(req *r, filter_buf *fb)
{
	pk_filter *f = &fb->f;
	filter_init(f);
	f->player = arg(r, "player", ARG_MAX);
	f->black = arg(r, "black", ARG_MAX);
	f->white = arg(r, "white", ARG_MAX);
	f->event = arg(r, "event", ARG_MAX);
	f->site = arg(r, "site", ARG_MAX);
	const char *res = arg(r, "result", 16), *from = arg(r, "from", 16), *to = arg(r, "to", 16);
	const char *opening = arg(r, "opening", MOVES_MAX);
	if (r->status)
		return false;
	f->gametype = 21;
	if (res) {
		int v = result_parse(res);
		if (!strcasecmp(res, "black"))
			v = RES_BLACK_WINS;
		else if (!strcasecmp(res, "white"))
			v = RES_WHITE_WINS;
		else if (!strcasecmp(res, "draw"))
			v = RES_DRAW;
		if (v == RES_NONE)
			return fail(r, 400, "'result' must be 1-0, 0-1, 1/2-1/2, *, black, white or draw");
		snprintf(fb->result, sizeof fb->result, "%s", result_string(v));
		f->result = fb->result;
	}
	if (from && store_date_bound(from, false, &f->date_from) < 0)
		return fail(r, 400, "'from' must be YYYY, YYYY-MM or YYYY-MM-DD");
	if (to && store_date_bound(to, true, &f->date_to) < 0)
		return fail(r, 400, "'to' must be YYYY, YYYY-MM or YYYY-MM-DD");
	long v;
	if (!arg_long(r, "min_plies", 0, 100000, -1, &v))
		return false;
	f->min_plies = (int)v;
	if (!arg_long(r, "max_plies", 0, 100000, -1, &v))
		return false;
	f->max_plies = (int)v;
	if (opening) {
		pk_game g;
		pk_replay rp;
		game_init(&g);
		replay_init(&rp);
		const char *error;
		int n = -1;
		if (replay_moves_text_as(opening, 21, &g, &rp, &error) < 0)
			fail(r, 400, "'opening': %s", error);
		else if ((n = store_encode_moves(&rp, fb->opening, sizeof fb->opening)) < 0)
			fail(r, 400, "'opening': too many moves");
		game_free(&g);
		replay_free(&rp);
		if (n < 0)
			return false;
		f->opening_set = true;
		f->opening = fb->opening;
		f->opening_len = n;
	}
	bool named;
	if (!arg_position(r, &fb->at, &named))
		return false;
	if (named) {
		fb->at_set = true;
		f->position_set = true;
		f->position_key = fb->at.key;
	}
	return true;
}

static void json_row_head(req *r, const pk_row *row)
{
	pk_buf *b = r->out;
	buf_printf(b, "{\"id\":%lld,\"event\":", (long long)row->id);
	buf_json(b, row->event);
	buf_str(b, ",\"site\":");
	buf_json(b, row->site);
	buf_str(b, ",\"date\":");
	buf_json(b, row->date);
	buf_str(b, ",\"round\":");
	buf_json(b, row->round);
	buf_str(b, ",\"black\":");
	buf_json(b, row->black);
	buf_str(b, ",\"white\":");
	buf_json(b, row->white);
	buf_str(b, ",\"result\":");
	buf_json(b, row->result);
	buf_printf(b, ",\"plies\":%d,\"gametype\":%d,\"status\":\"%s\"", row->plies, row->gametype,
		   row->status == STATUS_VALID      ? "valid"
		   : row->status == STATUS_WARNINGS ? "warnings"
		   : row->status == STATUS_ERRORS   ? "errors"
						    : "not replayed");
	if (row->ply >= 0)
		buf_printf(b, ",\"ply\":%d", row->ply);
}

typedef struct {
	req *r;
	int n;
} rows_ctx;

static int game_row(void *ctx, const pk_row *row)
{
	rows_ctx *c = ctx;
	buf_str(c->r->out, c->n++ ? ",\n" : "\n");
	json_row_head(c->r, row);
	buf_str(c->r->out, "}");
	return c->r->out->failed;
}

/* GET /api/games: the games that match, a page at a time, and how many match. */
static void api_games(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	long limit, offset;
	if (!arg_filter(r, &fb) || !arg_long(r, "limit", 1, 500, 50, &limit) ||
	    !arg_long(r, "offset", 0, 1000000000, 0, &offset))
		return;
	const char *order = arg(r, "order", 16);
	if (r->status)
		return;
	static const char *const orders[] = { "id", "date", "event", "black", "white", "plies", "result", "ply" };
	bool known = !order;
	for (size_t i = 0; order && i < sizeof orders / sizeof orders[0]; i++)
		known |= strcmp(order, orders[i]) == 0;
	if (!known)
		return (void)fail(r, 400, "'order' must be id, date, event, black, white, plies, result or ply");
	if (order && !strcmp(order, "ply") && !fb.at_set)
		return (void)fail(r, 400, "'order=ply' needs a position (fen or moves)");
	fb.f.order = order;
	fb.f.desc = arg_bool(r, "desc");
	long count;
	if (store_count(s, &fb.f, &count) < 0)
		return (void)fail(r, 500, "%s", store_error(s));
	fb.f.limit = limit;
	fb.f.offset = offset;
	buf_printf(r->out, "{\"count\":%ld,\"offset\":%ld,\"limit\":%ld,\"games\":[", count, offset, limit);
	rows_ctx c = { r, 0 };
	if (store_query(s, &fb.f, game_row, &c) < 0)
		return (void)fail(r, 500, "%s", store_error(s));
	buf_str(r->out, "]}");
}

/* --- one game --- */

typedef struct {
	req *r;
	int n;
} annot_ctx;

static int annot_row(void *ctx, const pk_annot_row *a)
{
	annot_ctx *c = ctx;
	pk_buf *b = c->r->out;
	buf_printf(b, "%s{\"ply\":%d,\"side\":", c->n++ ? "," : "", a->ply);
	buf_json(b, a->side);
	buf_str(b, ",\"class\":");
	buf_json(b, a->cls);
	buf_str(b, ",\"move\":");
	buf_json(b, a->move);
	if (a->scored) {
		buf_str(b, ",\"best\":");
		buf_json(b, a->best);
		buf_str(b, ",\"pv\":");
		buf_json(b, a->pv);
		buf_printf(b, ",\"score_best\":%d,\"score_played\":%d,\"loss\":%d,\"depth\":%d", a->score_best, a->score_played,
			   a->loss, a->depth);
	}
	buf_str(b, "}");
	return b->failed;
}

typedef struct {
	pk_buf *b;
} tags_ctx;

static int tag_row(void *ctx, const char *name, const char *value)
{
	tags_ctx *c = ctx;
	buf_str(c->b, c->b->p[c->b->n - 1] == '[' ? "[" : ",[");
	buf_json(c->b, name);
	buf_str(c->b, ",");
	buf_json(c->b, value);
	buf_str(c->b, "]");
	return c->b->failed;
}

typedef struct {
	pk_store *s;
	bool found;
	pk_game g;
	pk_replay rp;
	int64_t id;
	req *r;
	int loaded;
} load_ctx;

static int load_row(void *ctx, const pk_row *row)
{
	load_ctx *c = ctx;
	c->found = true;
	json_row_head(c->r, row);
	c->loaded = store_load_game(c->s, row, &c->g, &c->rp);
	return 1;
}

static int sink_buf(void *ctx, const char *p, size_t n)
{
	pk_buf *b = ctx;
	buf_add(b, p, n);
	return b->failed ? -1 : 0;
}

/* The comments of the main line after ply p's move (p = 0: before the first move), each
 * a string of the array. */
static void json_comments(req *r, const pk_game *g, const pk_replay *rp, int p)
{
	int from = p == 0 ? 0 : rp->plies[p - 1].el_last + 1;
	int to = p < rp->nply ? rp->plies[p].el : g->nel;
	buf_str(r->out, "[");
	int n = 0;
	for (int e = from; e < to && e < g->nel; e++) {
		const pk_el *el = &g->els[e];
		if (el->kind != EL_COMMENT || el->depth != 0)
			continue;
		if (n++)
			buf_str(r->out, ",");
		buf_json(r->out, game_str(g, el->off));
	}
	buf_str(r->out, "]");
}

/* GET /api/game?id=N: tags, positions, moves with comments, the latest annotation, PDN. */
static void api_game(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	long id;
	if (!arg_long(r, "id", 1, 2000000000L, 0, &id))
		return;
	if (!id)
		return (void)fail(r, 400, "'id' is needed: the game's number");
	pk_filter f;
	filter_init(&f);
	f.id = id;
	load_ctx c = { .s = s, .r = r, .id = id };
	game_init(&c.g);
	replay_init(&c.rp);
	if (store_query(s, &f, load_row, &c) < 0) {
		fail(r, 500, "%s", store_error(s));
		goto out;
	}
	if (!c.found) {
		fail(r, 404, "no game %ld in the store", id);
		goto out;
	}
	if (c.loaded < 0) {
		fail(r, 500, "game %ld cannot be read back: %s", id, store_error(s));
		goto out;
	}
	pk_buf *b = r->out;
	buf_str(b, ",\"tags\":[");
	tags_ctx tc = { b };
	if (store_tags(s, id, tag_row, &tc) < 0) {
		fail(r, 500, "%s", store_error(s));
		goto out;
	}
	buf_str(b, "]");
	bool english = c.rp.variant == 0 || c.rp.variant == 21;
	if (english) {
		char fen[PK_FEN_STRLEN], board[33];
		fen_format(&c.rp.start, fen, sizeof fen);
		buf_str(b, ",\"start\":");
		buf_json(b, fen);
		buf_str(b, ",\"positions\":[");
		for (int i = 0; i <= c.rp.nply; i++) {
			const pk_pos *p = i == 0 ? &c.rp.start : &c.rp.plies[i - 1].after;
			board_string(p, board);
			buf_printf(b, "%s\"%s\"", i ? "," : "", board);
		}
		buf_str(b, "],\"comment\":");
		json_comments(r, &c.g, &c.rp, 0);
		buf_str(b, ",\"moves\":[");
		for (int i = 0; i < c.rp.nply; i++) {
			const pk_pos *before = replay_pos_before(&c.rp, i + 1);
			const pk_move *m = &c.rp.plies[i].move;
			char text[PK_MOVE_STRLEN];
			pdn_move_string(before, m, false, text);
			buf_printf(b, "%s{\"ply\":%d,\"number\":%d,\"side\":\"%s\",\"move\":", i ? "," : "", i + 1,
				   replay_move_number(&c.rp, i + 1), before->stm == PK_BLACK ? "black" : "white");
			buf_json(b, text);
			buf_printf(b, ",\"from\":%d,\"path\":[", m->from + 1);
			for (int k = 0; k < m->nland; k++)
				buf_printf(b, "%s%d", k ? "," : "", m->land[k] + 1);
			buf_str(b, "],\"comments\":");
			json_comments(r, &c.g, &c.rp, i + 1);
			buf_str(b, "}");
		}
		buf_str(b, "]");
	} else {
		buf_str(b, ",\"start\":null,\"positions\":null,\"moves\":null");
	}
	int64_t run;
	if (store_latest_run(s, id, &run) < 0) {
		fail(r, 500, "%s", store_error(s));
		goto out;
	}
	buf_str(b, ",\"annotation\":");
	if (run) {
		buf_printf(b, "{\"run\":%lld,\"moves\":[", (long long)run);
		annot_ctx ac = { r, 0 };
		int decisive;
		if (store_load_annotation(s, id, run, annot_row, &ac, &decisive) < 0) {
			fail(r, 500, "%s", store_error(s));
			goto out;
		}
		buf_printf(b, "],\"decisive\":%d}", decisive);
	} else {
		buf_str(b, "null");
	}
	pk_buf pdn;
	buf_init(&pdn);
	pk_write_opts wo = { .width = 80 };
	pdn_write_game(&c.g, &c.rp, &wo, sink_buf, &pdn);
	buf_str(b, ",\"pdn\":");
	buf_json(b, pdn.failed ? "" : pdn.p ? pdn.p : "");
	buf_free(&pdn);
	buf_str(b, "}");
out:
	game_free(&c.g);
	replay_free(&c.rp);
}

/* --- the collection --- */

static void json_bucket(req *r, const pk_bucket *k)
{
	buf_str(r->out, "{\"text\":");
	buf_json(r->out, k->text);
	buf_printf(r->out, ",\"games\":%ld,\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld}", k->games, k->bw, k->ww,
		   k->draws);
}

static pk_summary *summary_of(req *r, pk_store *s, filter_buf *fb)
{
	pk_summary *st = malloc(sizeof *st);
	if (!st) {
		fail(r, 503, "out of memory");
		return NULL;
	}
	if (store_summary(s, &fb->f, fb->at_set ? &fb->at : NULL, NULL, st) < 0) {
		fail(r, 500, "%s", store_error(s));
		free(st);
		return NULL;
	}
	return st;
}

/* GET /api/explorer: the games that reach the position (any move order) under the
 * filters, and the moves they played next with their results; every legal move is
 * listed, the played ones first. */
static void api_explorer(pk_web *w, req *r, pk_store *s)
{
	filter_buf fb;
	if (!arg_filter(r, &fb))
		return;
	if (!fb.at_set) {
		pos_start(&fb.at);
		fb.at_set = true;
		fb.f.position_set = true;
		fb.f.position_key = fb.at.key;
	}
	long count;
	if (store_count(s, &fb.f, &count) < 0)
		return (void)fail(r, 500, "%s", store_error(s));
	pk_summary *st = summary_of(r, s, &fb);
	if (!st)
		return;
	char fen[PK_FEN_STRLEN], board[33];
	fen_format(&fb.at, fen, sizeof fen);
	board_string(&fb.at, board);
	pk_buf *b = r->out;
	buf_str(b, "{\"fen\":");
	buf_json(b, fen);
	buf_printf(b, ",\"board\":\"%s\",\"turn\":\"%s\",\"games\":%ld,\"ended\":%ld,", board,
		   fb.at.stm == PK_BLACK ? "black" : "white", count, st->explore_ended);
	buf_printf(b, "\"results\":{\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld,\"unknown\":%ld},\"moves\":[",
		   st->res[0], st->res[1], st->res[2], st->res[3]);
	pk_movelist ml;
	gen_moves(&fb.at, &ml);
	bool listed[PK_MAX_MOVES] = { false };
	int n = 0;
	for (int i = 0; i < st->nexplore; i++) {
		int o = st->ex_ord[i];
		if (o < 0 || o >= ml.n)
			continue;
		listed[o] = true;
		buf_str(b, n++ ? "," : "");
		json_move(r, &fb.at, &ml.m[o]);
		b->n--;   /* reopen the object */
		buf_printf(b, ",\"games\":%ld,\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld}", st->explore[i].games,
			   st->explore[i].bw, st->explore[i].ww, st->explore[i].draws);
	}
	for (int o = 0; o < ml.n; o++) {
		if (listed[o])
			continue;
		buf_str(b, n++ ? "," : "");
		json_move(r, &fb.at, &ml.m[o]);
		b->n--;
		buf_str(b, ",\"games\":0,\"black_wins\":0,\"white_wins\":0,\"draws\":0}");
	}
	buf_str(b, "],\"egdb\":");
	json_egdb(w, r, &fb.at);
	buf_str(b, "}");
	free(st);
}

/* GET /api/stats: counts, results, openings, players and years of the matching games. */
static void api_stats(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	if (!arg_filter(r, &fb))
		return;
	pk_summary *st = summary_of(r, s, &fb);
	if (!st)
		return;
	pk_buf *b = r->out;
	char d1[16], d2[16];
	summary_date_text(st->date_min, d1, sizeof d1);
	summary_date_text(st->date_max, d2, sizeof d2);
	buf_printf(b, "{\"games\":%ld,\"players\":%ld,\"events\":%ld,\"first_date\":", st->games, st->players, st->events);
	buf_json(b, st->date_min ? d1 : NULL);
	buf_str(b, ",\"last_date\":");
	buf_json(b, st->date_max ? d2 : NULL);
	buf_printf(b, ",\"results\":{\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld,\"unknown\":%ld},\"openings\":[",
		   st->res[0], st->res[1], st->res[2], st->res[3]);
	for (int i = 0; i < st->nopenings; i++) {
		buf_str(b, i ? "," : "");
		json_bucket(r, &st->openings[i]);
	}
	buf_str(b, "],\"players\":[");
	for (int i = 0; i < st->nplayers; i++) {
		buf_str(b, i ? ",{\"name\":" : "{\"name\":");
		buf_json(b, st->players_top[i].name);
		buf_printf(b, ",\"games\":%ld,\"won\":%ld,\"drawn\":%ld,\"lost\":%ld}", st->players_top[i].games,
			   st->players_top[i].won, st->players_top[i].drawn, st->players_top[i].lost);
	}
	buf_str(b, "],\"years\":[");
	int n = 0;
	for (int y = st->ymin; y && y <= st->ymax; y++)
		if (y >= 1500 && y - 1500 < 600 && st->years[y - 1500])
			buf_printf(b, "%s[%d,%d]", n++ ? "," : "", y, st->years[y - 1500]);
	buf_str(b, "]}");
	free(st);
}

typedef struct {
	req *r;
	int n;
} players_ctx;

static int player_row(void *ctx, const pk_store_player *p)
{
	players_ctx *c = ctx;
	pk_buf *b = c->r->out;
	buf_str(b, c->n++ ? ",\n{\"name\":" : "\n{\"name\":");
	buf_json(b, p->name);
	buf_str(b, ",\"key\":");
	buf_json(b, p->key);
	buf_printf(b, ",\"games\":%ld,\"won\":%ld,\"drawn\":%ld,\"lost\":%ld,\"annotated_moves\":%ld,\"average_loss\":", p->games,
		   p->won, p->drawn, p->lost, p->moves);
	if (p->moves)
		buf_printf(b, "%.1f", p->average_loss);
	else
		buf_str(b, "null");
	buf_printf(b, ",\"first_year\":%d,\"last_year\":%d,\"spellings\":[", p->first_year, p->last_year);
	const char *q = p->spellings;
	int k = 0;
	while (*q) {
		const char *e = strchr(q, '\x1F');
		size_t len = e ? (size_t)(e - q) : strlen(q);
		char one[256];
		snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), q);
		buf_str(b, k++ ? "," : "");
		buf_json(b, one);
		q += len + (e ? 1 : 0);
	}
	buf_str(b, "]}");
	return b->failed;
}

/* GET /api/players: the players of the matching games, the most games first. */
static void api_players(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	long limit;
	if (!arg_filter(r, &fb) || !arg_long(r, "limit", 1, 5000, 100, &limit))
		return;
	buf_str(r->out, "{\"players\":[");
	players_ctx c = { r, 0 };
	if (store_players(s, &fb.f, limit, player_row, &c) < 0)
		return (void)fail(r, 500, "%s", store_error(s));
	buf_str(r->out, "]}");
}

/* GET /api/egdb?fen=: the value of a position in the endgame databases. */
static void api_egdb(pk_web *w, req *r)
{
	pk_pos p;
	if (!arg_position(r, &p, NULL))
		return;
	char fen[PK_FEN_STRLEN];
	fen_format(&p, fen, sizeof fen);
	buf_str(r->out, "{\"fen\":");
	buf_json(r->out, fen);
	buf_printf(r->out, ",\"pieces\":%d,\"loaded\":%d,\"egdb\":", __builtin_popcount(p.side[0] | p.side[1]),
		   w->o.egdb ? egdb_pieces(w->o.egdb) : 0);
	json_egdb(w, r, &p);
	buf_str(r->out, "}");
}

/* GET /api/analyse?fen=|moves=&time=S: a search of the position by one of the engines,
 * at most max_time seconds; 503 when every engine is busy. */
static void api_analyse(pk_web *w, req *r)
{
	pk_pos p;
	if (!arg_position(r, &p, NULL))
		return;
	const char *t = arg(r, "time", 16);
	if (r->status)
		return;
	double secs = 1.0;
	if (t) {
		char *end;
		secs = strtod(t, &end);
		if (*end || end == t || !(secs >= 0.01 && secs <= w->o.max_time))
			return (void)fail(r, 400, "'time' must be seconds from 0.01 to %g", w->o.max_time);
	}
	if (secs > w->o.max_time)
		secs = w->o.max_time;
	if (w->o.nengines == 0)
		return (void)fail(r, 503, "analysis is off on this server (--searches 0)");
	int slot = take_slot(w);
	if (slot < 0)
		return (void)fail(r, 503, "all %d engines are busy; try again in a moment", w->o.nengines);
	pk_engine *e = w->o.engines[slot];
	pk_limits lim = { .movetime = secs };
	pk_history h = { 0 };
	pk_result res;
	engine_new_game(e);
	engine_search(e, &p, &h, &lim, &w->stop, NULL, NULL, &res);
	give_slot(w, slot);
	char fen[PK_FEN_STRLEN];
	fen_format(&p, fen, sizeof fen);
	pk_buf *b = r->out;
	buf_str(b, "{\"fen\":");
	buf_json(b, fen);
	if (!res.has_move) {
		buf_str(b, ",\"best\":null,\"score\":null,\"pv\":[],\"result\":\"the side to move has no move: it has lost\"}");
		return;
	}
	char text[PK_MOVE_STRLEN];
	pdn_move_string(&p, &res.best, false, text);
	buf_str(b, ",\"best\":");
	buf_json(b, text);
	buf_printf(b, ",\"forced\":%s,\"depth\":%d,\"score\":%d,\"nodes\":%llu,\"seconds\":%.3f", res.forced ? "true" : "false",
		   res.last.depth, res.last.score, (unsigned long long)res.last.nodes, res.last.seconds);
	if (score_is_win(res.last.score))
		buf_printf(b, ",\"win_in\":%d", res.last.score > 0 ? score_plies(res.last.score) : -score_plies(res.last.score));
	buf_str(b, ",\"pv\":[");
	pk_pos q = p;
	for (int i = 0; i < res.last.npv; i++) {
		pdn_move_string(&q, &res.last.pv[i], false, text);
		buf_str(b, i ? "," : "");
		buf_json(b, text);
		pk_pos n;
		pos_make(&q, &res.last.pv[i], &n);
		q = n;
	}
	buf_str(b, "],\"egdb\":");
	json_egdb(w, r, &p);
	buf_str(b, "}");
}

/* GET /api/info: what this server offers. */
static void api_info(pk_web *w, req *r)
{
	pthread_mutex_lock(&w->cmu);
	long hits = w->hits, misses = w->misses;
	pthread_mutex_unlock(&w->cmu);
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
 * it (only with --allow-write); it takes an engine slot while it runs. */
static void api_annotate(pk_web *w, req *r, pk_store *s)
{
	long id;
	if (!arg_long(r, "id", 1, 2000000000L, 0, &id))
		return;
	if (!id)
		return (void)fail(r, 400, "'id' is needed: the game's number");
	if (!w->o.allow_write || !w->o.annotate)
		return (void)fail(r, 403, "this server does not change the store (start it with --allow-write)");
	if (!r->rq->own_header)
		return (void)fail(r, 403, "a request that changes the store must carry the header X-Pdnkit: 1");
	int slot = take_slot(w);
	if (slot < 0)
		return (void)fail(r, 503, "the engine is busy; try again in a moment");
	pk_batch_opts bo = *w->o.annotate;
	char settings[512], err[600];
	batch_settings(&bo, 0u, settings, sizeof settings);
	bo.store = s;
	bo.read_back = false;
	bo.threads = 1;
	bo.stop = &w->stop;
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
		fail(r, 500, "%s", store_error(s));
	else if (!count)
		fail(r, 404, "no game %ld in the store", id);
	else if (!(b = batch_new(&bo, err, sizeof err)))
		fail(r, 503, "%s", err);
	else {
		pk_source src = { .store = s, .filter = &f, .stop = &w->stop };
		if (batch_run(b, &src) < 0)
			fail(r, 500, "%s", batch_error(b));
		else
			buf_printf(r->out, "{\"id\":%ld,\"run\":%lld,\"annotated\":%s,\"settings\":", id, (long long)bo.run,
				   batch_counts(b)->annotated ? "true" : "false");
		if (!r->status) {
			buf_json(r->out, settings);
			buf_str(r->out, "}");
		}
	}
	batch_free(b);
	give_slot(w, slot);
}

/* POST /api/alias?spelling=S&player=P: S becomes one more spelling of P (only with
 * --allow-write), as `pdnkit players --alias S=P`. */
static void api_alias(pk_web *w, req *r, pk_store *s)
{
	const char *sp = arg(r, "spelling", 200), *pl = r->status ? NULL : arg(r, "player", 200);
	if (r->status)
		return;
	if (!sp || !pl)
		return (void)fail(r, 400, "'spelling' and 'player' are needed: the spelling becomes one of the player's");
	if (!w->o.allow_write)
		return (void)fail(r, 403, "this server does not change the store (start it with --allow-write)");
	if (!r->rq->own_header)
		return (void)fail(r, 403, "a request that changes the store must carry the header X-Pdnkit: 1");
	long rekeyed;
	if (store_add_alias(s, sp, pl, &rekeyed) < 0)
		return (void)fail(r, strstr(store_error(s), "already a spelling") || strstr(store_error(s), "holds no name") ? 400 : 500,
				  "%s", store_error(s));
	buf_str(r->out, "{\"spelling\":");
	buf_json(r->out, sp);
	buf_str(r->out, ",\"player\":");
	buf_json(r->out, pl);
	buf_printf(r->out, ",\"games_changed\":%ld}", rekeyed);
}

/* --- answers kept: a call of the store answers the same while the store is the same.
 * The store's version is read from its files (the database and its write-ahead log:
 * any commit, by this server or by another program, changes their size or time), so
 * nothing is served stale. Requests for an answer being made wait for it, so fifty
 * clients asking for the statistics at once make them once. --- */

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t store_version(const pk_web *w)
{
	uint64_t v = 1469598103934665603ull;
	static const char *const ext[] = { "", "-wal" };
	for (int i = 0; i < 2; i++) {
		char path[4200];
		struct stat st;
		snprintf(path, sizeof path, "%s%s", w->o.db_path, ext[i]);
		if (stat(path, &st) < 0) {
			v = mix(v, 0);
			continue;
		}
		v = mix(v, (uint64_t)st.st_size);
		v = mix(v, (uint64_t)st.st_mtim.tv_sec);
		v = mix(v, (uint64_t)st.st_mtim.tv_nsec);
		v = mix(v, (uint64_t)st.st_ino);
	}
	return v;
}

/* The call and its arguments, as one string (NULL: out of memory). */
static char *cache_key(const char *api, const http_request *rq)
{
	pk_buf k;
	buf_init(&k);
	buf_str(&k, api);
	for (int i = 0; i < rq->nargs; i++) {
		buf_str(&k, "\n");
		buf_str(&k, rq->name[i]);
		buf_str(&k, "=");
		buf_str(&k, rq->value[i]);
	}
	if (k.failed) {
		buf_free(&k);
		return NULL;
	}
	return k.p;
}

static struct cache_entry *cache_find(pk_web *w, const char *key)
{
	for (int i = 0; i < CACHE_SLOTS; i++)
		if (w->cache[i].key && !strcmp(w->cache[i].key, key))
			return &w->cache[i];
	return NULL;
}

static void cache_drop(struct cache_entry *e)
{
	free(e->key);
	free(e->body);
	memset(e, 0, sizeof *e);
}

/* A copy of the kept answer to key at version (*body, *len), or the slot this request
 * is to make it in (NULL: none free, or out of memory; make it without keeping it).
 * Takes key when it returns a slot. */
static struct cache_entry *cache_get(pk_web *w, char *key, uint64_t version, char **body, size_t *len)
{
	*body = NULL;
	pthread_mutex_lock(&w->cmu);
	struct cache_entry *e;
	for (int waited = 0;; waited++) {
		e = cache_find(w, key);
		if (!e || w->stop)
			break;
		if (!e->making) {
			if (e->version != version) {
				cache_drop(e);
				e = NULL;
				break;
			}
			e->used = ++w->tick;
			if ((*body = malloc(e->len + 1))) {
				memcpy(*body, e->body, e->len + 1);
				*len = e->len;
				w->hits++;
			}
			pthread_mutex_unlock(&w->cmu);
			free(key);
			return NULL;
		}
		/* being made: wait for it, a while (the store's own limit ends a slow query) */
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)w->o.query_time + 5;
		if (pthread_cond_timedwait(&w->cache_done, &w->cmu, &until) != 0) {
			e = NULL;
			pthread_mutex_unlock(&w->cmu);
			free(key);
			return NULL;
		}
	}
	w->misses++;
	struct cache_entry *slot = NULL;
	if (!w->stop)
		for (int i = 0; i < CACHE_SLOTS; i++) {
			struct cache_entry *c = &w->cache[i];
			if (c->making)
				continue;
			if (!c->key) {
				slot = c;
				break;
			}
			if (!slot || c->used < slot->used)
				slot = c;
		}
	if (slot) {
		cache_drop(slot);
		slot->key = key;
		slot->version = version;
		slot->making = true;
		slot->used = ++w->tick;
	} else {
		free(key);
	}
	pthread_mutex_unlock(&w->cmu);
	return slot;
}

/* The answer made in slot e: kept when body is not NULL, else the slot freed. */
static void cache_put(pk_web *w, struct cache_entry *e, const char *body, size_t len)
{
	pthread_mutex_lock(&w->cmu);
	e->making = false;
	if (body && len <= CACHE_MAX && (e->body = malloc(len + 1))) {
		memcpy(e->body, body, len);
		e->body[len] = 0;
		e->len = len;
	} else {
		cache_drop(e);
	}
	pthread_cond_broadcast(&w->cache_done);
	pthread_mutex_unlock(&w->cmu);
}

static void cache_free(pk_web *w)
{
	for (int i = 0; i < CACHE_SLOTS; i++)
		cache_drop(&w->cache[i]);
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
	struct cache_entry *ce = NULL;   /* the slot this request makes an answer in */
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
	if (strcmp(rq->method, "GET") != 0 && !head && !post) {
		fail(&r, 405, "only GET and HEAD are served (and POST for /api/annotate and /api/alias)");
	} else if (!post && changes) {
		fail(&r, 405, "%s changes the store: POST it", path + 5);
	} else if (rq->has_body) {
		fail(&r, 400, "a GET request takes no body");
	} else if (rq->too_many) {
		fail(&r, 400, "too many arguments (at most %d)", HTTP_MAX_ARGS);
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
		fail(&r, 404, "no such page");
	} else {
		const char *api = path + 5;
		static const char *const with_store[] = { "games", "game", "explorer", "stats", "players", "annotate", "alias" };
		bool needs_store = false;
		for (size_t i = 0; i < sizeof with_store / sizeof with_store[0]; i++)
			needs_store |= strcmp(api, with_store[i]) == 0;
		if (needs_store && !post) {
			/* an answer kept for this store as it is now */
			char *key = cache_key(api, rq), *kept = NULL;
			size_t kept_len = 0;
			if (key)
				ce = cache_get(w, key, store_version(w), &kept, &kept_len);
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
			pk_store *s = take_store(w, err, sizeof err);
			if (!s) {
				fail(&r, 503, "the store cannot be opened: %s", err);
			} else {
				if (!strcmp(api, "games"))
					api_games(w, &r, s);
				else if (!strcmp(api, "game"))
					api_game(w, &r, s);
				else if (!strcmp(api, "explorer"))
					api_explorer(w, &r, s);
				else if (!strcmp(api, "stats"))
					api_stats(w, &r, s);
				else if (!strcmp(api, "annotate"))
					api_annotate(w, &r, s);
				else if (!strcmp(api, "alias"))
					api_alias(w, &r, s);
				else
					api_players(w, &r, s);
				give_store(w, s);
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
			fail(&r, 404, "no such API call (info, games, game, position, explorer, stats, players, egdb, analyse, annotate, alias)");
		}
	}
	if (!r.status && b.failed)
		fail(&r, 503, "out of memory");
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
		cache_put(w, ce, rs->status == 200 && !b.failed ? b.p : NULL, b.n);
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
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->store_free, NULL);
	pthread_mutex_init(&w->cmu, NULL);
	pthread_cond_init(&w->cache_done, NULL);
	/* the store must open now: a wrong path is said at once, not on the first request */
	pk_store *s = store_open(o->db_path, o->allow_write ? STORE_WRITE : STORE_READ, err, errsize);
	if (!s) {
		pthread_cond_destroy(&w->cache_done);
		pthread_mutex_destroy(&w->cmu);
		pthread_cond_destroy(&w->store_free);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	w->nopen = 1;
	give_store(w, s);
	http_opts ho = { .bind = o->bind, .port = o->port, .max_connections = o->max_connections, .timeout = o->timeout };
	w->http = http_start(&ho, on_request, w, err, errsize);
	if (!w->http) {
		store_close(w->idle[0]);
		pthread_cond_destroy(&w->cache_done);
		pthread_mutex_destroy(&w->cmu);
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
	cache_free(w);
	pthread_cond_destroy(&w->cache_done);
	pthread_mutex_destroy(&w->cmu);
	pthread_cond_destroy(&w->store_free);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
