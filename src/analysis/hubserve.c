/* pdnkit's engine over the Hub protocol: one session of a GUI or a match runner (see
 * hubserve.h; the commands and answers are described in pdnkit-engine(1)). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#include "base/text.h"
#include "analysis/hubserve.h"
#include "analysis/play.h"
#include "book/book.h"
#include "proto/hub.h"
#include "rules/fen.h"
#include "rules/variant.h"
#include "base/port.h"

/* ---- the session ---- */

typedef struct {
	const pk_hub_server *srv;
	FILE *out;
	int in_fd;
	/* input read without stdio, so that waiting for it (select) never misses a line
	 * already read into a buffer */
	char inbuf[65536];
	size_t inlen;
	bool in_eof;
	bool pdn_notation;         /* moves as PDN writes them, not as Hub does */
	pk_hub_params params;      /* set-param's values (copies) */
	pk_engine *e;
	pk_book *bk;
	bool use_book;
	bool ready;
	bool init_failed;          /* init was refused: go answers an error, then done */
	bool no_position;          /* the last pos was refused: go answers an error, then done */
	pk_play g;                 /* the position of "pos": its start, then the moves */
	pk_limits lim;             /* from "level" */
	double time_left, inc;     /* "level time=... inc=..." */
	int moves_left;
	bool timed, infinite;
	volatile sig_atomic_t stop;
	bool ponder_hit, quit;
	/* the search's output */
	const pk_gpos *root;
	/* another variant (set-param variant=normal|frisian before init): its engine beside
	 * e (none), its game in g */
	const pk_variant *v;
	pk_gengine *ge;            /* e lent, or the variant's engine; made at init */
	/* lines read while searching that are not for the search */
	char pending[8][512];
	int npending;
} hub;

static void say(hub *h, const char *fmt, ...) PK_PRINTF(2, 3);
static void say(hub *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(h->out, fmt, ap);
	va_end(ap);
	fputc('\n', h->out);
	fflush(h->out);
}

static void hub_error(hub *h, const char *fmt, ...) PK_PRINTF(2, 3);
static void hub_error(hub *h, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++)
		if (*p == '"')
			*p = '\'';
	say(h, "error message=\"%s\"", buf);
}

/* The next whole line (without its newline) into out, when one is buffered. */
static bool take_line(hub *h, char *out, size_t size)
{
	char *nl = memchr(h->inbuf, '\n', h->inlen);
	if (!nl && !(h->in_eof && h->inlen > 0) && h->inlen < sizeof h->inbuf)
		return false;
	size_t n = nl ? (size_t)(nl - h->inbuf) : h->inlen;
	size_t k = n < size - 1 ? n : size - 1;
	memcpy(out, h->inbuf, k);
	out[k] = 0;
	size_t used = nl ? n + 1 : n;
	memmove(h->inbuf, h->inbuf + used, h->inlen - used);
	h->inlen -= used;
	return true;
}

/* Waits up to ms milliseconds (forever when ms < 0) for a line: 1, 0 for none yet, -1
 * at the end of input. */
static int next_line(hub *h, char *out, size_t size, int ms)
{
	for (;;) {
		if (take_line(h, out, size))
			return 1;
		if (h->in_eof)
			return -1;
		fd_set r;
		FD_ZERO(&r);
		FD_SET(h->in_fd, &r);
		struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
		int k = select(h->in_fd + 1, &r, NULL, NULL, ms < 0 ? NULL : &tv);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			h->in_eof = true;   /* a descriptor select cannot wait on: no more input */
			continue;
		}
		if (k == 0)
			return 0;
		ssize_t got = read(h->in_fd, h->inbuf + h->inlen, sizeof h->inbuf - h->inlen);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			h->in_eof = true;
		else
			h->inlen += (size_t)got;
	}
}


/* A score for "info": hundredths as men, a win or loss in n plies as +-(100 - n/100). */
static double hub_score(int score)
{
	if (score_is_win(score))
		return (score > 0 ? 1 : -1) * (100.0 - score_plies(score) / 100.0);
	return score / 100.0;
}

/* A move of p as the Hub protocol (or PDN) writes it. */
static void gmove_text(const hub *h, const pk_gpos *p, const pk_gmove *m, char *buf, size_t size)
{
	if (p->v)
		hub_vmove_text(&p->x, &m->x, h->pdn_notation, buf, size);
	else
		hub_move_text(&p->e, &m->e, h->pdn_notation, buf, size);
}

static void on_iteration(void *vctx, const pk_giteration *it)
{
	hub *h = vctx;
	char pv[2048];
	size_t len = 0;
	pk_gpos p = *h->root;
	pv[0] = 0;
	for (int i = 0; i < it->npv && len < sizeof pv - 400; i++) {
		char mv[400];
		gmove_text(h, &p, &it->pv[i], mv, sizeof mv);
		len += (size_t)snprintf(pv + len, sizeof pv - len, "%s%s", i ? " " : "", mv);
		pk_gpos q;
		gpos_make(&p, &it->pv[i], &q);
		p = q;
	}
	double nps = it->seconds > 0 ? it->nodes / it->seconds / 1e6 : 0;
	say(h, "info depth=%d score=%.2f nodes=%llu time=%.3f nps=%.2f pv=\"%s\"", it->depth, hub_score(it->score),
	    (unsigned long long)it->nodes, it->seconds, nps, pv);
}

/* ---- another variant's game ---- */

/* The game of h reset to p (of h's variant); -1 when out of memory. */
static int vgame_reset(hub *h, const pk_vpos *p)
{
	pk_gpos s;
	gpos_variant(&s, p);
	pk_vpos initial;
	vpos_start(p->v, &initial);
	return play_init(&h->g, &s, memcmp(initial.sq, p->sq, sizeof p->sq) != 0 || initial.stm != p->stm);
}

/* Reading the GUI while the engine searches: ping, stop, ponder-hit, quit. */
static void watch_gui(void *ctx, const atomic_bool *done)
{
	hub *h = ctx;
	char buf[512];
	while (!atomic_load(done)) {
		int k = next_line(h, buf, sizeof buf, 20);
		if (k == 0)
			continue;
		if (k < 0) {
			h->quit = true;
			return;
		}
		char copy[512];
		snprintf(copy, sizeof copy, "%s", buf);
		hub_line l;
		char *cmd = hub_parse(buf, &l);
		if (!cmd)
			continue;
		if (!strcmp(cmd, "ping"))
			say(h, "pong");
		else if (!strcmp(cmd, "stop"))
			return;
		else if (!strcmp(cmd, "ponder-hit")) {
			h->ponder_hit = true;
			return;
		} else if (!strcmp(cmd, "quit")) {
			/* the search stops; lines read before it are still run first */
			if (h->npending > 0 && h->npending < 8)
				snprintf(h->pending[h->npending++], sizeof h->pending[0], "%s", copy);
			else
				h->quit = true;
			return;
		} else if (h->npending < 8)
			snprintf(h->pending[h->npending++], sizeof h->pending[0], "%s", copy);
	}
}

/* The time for this move under "level time=...". */
static double time_budget(const hub *h)
{
	return clock_share(h->time_left, h->inc, h->moves_left);
}

/* The time a search whose best move fails may run to (search feature time-panic):
 * half the clock, or a fixed move time and half a second (a referee allows some
 * margin past it: pdnkit's own, one second). */
static double hard_time(const hub *h, const pk_limits *lim)
{
	if (h->timed)
		return h->time_left * 0.5;
	return lim->movetime > 0 ? lim->movetime + 0.5 : 0;
}

static void go(hub *h, const char *mode)
{
	bool ponder = !strcmp(mode, "ponder"), analyze = !strcmp(mode, "analyze");
	pk_gpos root = h->g.pos;
	h->root = &root;
	if (gpos_count(&root) == 0) {
		hub_error(h, "the position has no legal move");
		say(h, "done");
		return;
	}
	pk_gresult *res = malloc(sizeof *res);
	if (!res) {
		hub_error(h, "out of memory");
		say(h, "done");
		return;
	}
	char mv[400], pm[400];
	pk_limits lim = h->lim;
	if (h->timed && !ponder)
		lim.movetime = time_budget(h);
	lim.hardtime = hard_time(h, &lim);
	lim.clock = h->timed && !ponder;
	if (h->infinite || ponder)
		memset(&lim, 0, sizeof lim);
	pk_history hist = play_history(&h->g);
	h->stop = 0;
	h->ponder_hit = false;
	bool from_book = false;
	const pk_book *bk = !ponder && !analyze && h->use_book ? h->bk : NULL;
	play_gthink(h->ge, bk, &root, &hist, &lim, &h->stop, on_iteration, h, watch_gui, h, res, &from_book);
	if (from_book && res->forced) {
		/* the book's move, unsearched */
		gmove_text(h, &root, &res->best, mv, sizeof mv);
		say(h, "info depth=0 pv=\"%s\" book=true", mv);
		say(h, "done move=%s", mv);
		free(res);
		return;
	}
	if (ponder && h->ponder_hit && !h->quit) {
		/* The expected move was played: now the search for real, on the clock. */
		lim = h->lim;
		if (h->timed)
			lim.movetime = time_budget(h);
		lim.hardtime = hard_time(h, &lim);
		lim.clock = h->timed;
		h->stop = 0;
		play_gthink(h->ge, NULL, &root, &hist, &lim, &h->stop, on_iteration, h, watch_gui, h, res, NULL);
	}
	gmove_text(h, &root, &res->best, mv, sizeof mv);
	bool pv_best = res->last.npv > 0 && gmove_same(&root, &res->last.pv[0], &res->best);
	if (!pv_best)
		/* chosen in an iteration that did not finish: the last line says so, so that a
		 * client never reads one move in the last info and another in done */
		say(h, "info depth=%d pv=\"%s\" partial=true", res->last.depth + 1, mv);
	if (res->last.npv >= 2 && pv_best) {
		pk_gpos q;
		gpos_make(&root, &res->best, &q);
		gmove_text(h, &q, &res->last.pv[1], pm, sizeof pm);
		say(h, "done move=%s ponder=%s", mv, pm);
	} else
		say(h, "done move=%s", mv);
	free(res);
}

/* The position of a pos command in another variant (as set_position). */
static void set_vposition(hub *h, const hub_line *l)
{
	h->no_position = true;
	const char *ps = hub_arg(l, "pos"), *fen = hub_arg(l, "fen"), *moves = hub_arg(l, "moves");
	pk_vpos p;
	char err[200];
	if (ps) {
		if (hub_vpos(h->v, ps, &p) < 0) {
			hub_error(h, "pos: '%s' is not a side letter and %d squares of w, b, W, B, e for %s (no position is set)",
				  ps, variant_squares(h->v), h->v->name);
			return;
		}
	} else if (fen) {
		if (vfen_parse(h->v, fen, &p, err, sizeof err) < 0) {
			hub_error(h, "pos fen: %s (no position is set)", err);
			return;
		}
	} else if (hub_arg(l, "start"))
		vpos_start(h->v, &p);
	else {
		hub_error(h, "pos needs pos=..., fen=... or start (no position is set)");
		return;
	}
	if (vpos_check(&p, err, sizeof err) < 0) {
		hub_error(h, "pos: an impossible position (%s; no position is set)", err);
		return;
	}
	if (vgame_reset(h, &p) < 0) {
		hub_error(h, "out of memory");
		return;
	}
	if (moves && *moves) {
		char buf[8192];
		snprintf(buf, sizeof buf, "%s", moves);
		for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
			pk_gmove m;
			if (!hub_read_vmove(&h->g.pos.x, tok, h->pdn_notation, &m.x)) {
				hub_error(h, "pos moves: %s is not a legal move here (no position is set)", tok);
				return;
			}
			if (play_move(&h->g, &m) < 0) {
				hub_error(h, "out of memory");
				return;
			}
		}
	}
	h->no_position = false;
}

/* The position of a pos command into h; when it is refused, h has no position until
 * the next pos (or new-game), and go answers an error. */
static void set_position(hub *h, const hub_line *l)
{
	h->no_position = true;
	const char *ps = hub_arg(l, "pos"), *fen = hub_arg(l, "fen"), *moves = hub_arg(l, "moves");
	pk_pos p;
	if (ps) {
		if (hub_pos(ps, &p) < 0) {
			hub_error(h, "pos: '%s' is not a side letter and 32 squares of w, b, W, B, e (no position is set)", ps);
			return;
		}
	} else if (fen) {
		pk_fen_error err;
		if (fen_parse(fen, strlen(fen), &p, &err) < 0) {
			hub_error(h, "pos fen: %s (no position is set)", err.msg);
			return;
		}
	} else if (hub_arg(l, "start"))
		pos_start(&p);
	else {
		hub_error(h, "pos needs pos=..., fen=... or start (no position is set)");
		return;
	}
	const char *why = pos_impossible(&p);
	if (why) {
		hub_error(h, "pos: an impossible position (%s; no position is set)", why);
		return;
	}
	pk_play g = { .draw_moves = PLAY_DRAW_MOVES };
	if (play_init_english(&g, &p, true) < 0) {
		hub_error(h, "out of memory");
		return;
	}
	if (moves && *moves) {
		char buf[8192];
		snprintf(buf, sizeof buf, "%s", moves);
		for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
			pk_move m;
			if (!hub_read_move(&g.pos.e, tok, h->pdn_notation, &m)) {
				hub_error(h, "pos moves: %s is not a legal move here (no position is set)", tok);
				play_free(&g);
				return;
			}
			play_move_english(&g, &m);
		}
	}
	play_free(&h->g);
	h->g = g;
	h->no_position = false;
}

/* A number of a command: the whole value, finite, within [lo, hi]; whole when
 * integer. Otherwise an error naming the command and field, and false. */
static bool hub_number(hub *h, const char *cmd, const char *name, const char *v, double lo, double hi, bool integer, double *out)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (end == v || *end || errno == ERANGE || !isfinite(x) || x < lo || x > hi || (integer && x != floor(x))) {
		if (integer)
			hub_error(h, "%s %s=%s: a whole number from %.0f to %.0f is expected", cmd, name, v, lo, hi);
		else
			hub_error(h, "%s %s=%s: a number of seconds from %g to %g is expected", cmd, name, v, lo, hi);
		return false;
	}
	*out = x;
	return true;
}

/* "level": a new limit, or (on any bad value) an error and the previous limit kept. */
static void set_level(hub *h, const hub_line *l)
{
	const char *v;
	pk_limits lim;
	memset(&lim, 0, sizeof lim);
	bool timed = false, infinite = hub_arg(l, "infinite") != NULL;
	double time_left = 0, inc = 0, x;
	int moves_left = 0;
	if ((v = hub_arg(l, "depth"))) {
		if (!hub_number(h, "level", "depth", v, 1, MAX_PLY - 8, true, &x))
			return;
		lim.depth = (int)x;
	}
	if ((v = hub_arg(l, "move-time"))) {
		if (!hub_number(h, "level", "move-time", v, 0.001, 1e6, false, &x))
			return;
		lim.movetime = x;
	}
	if ((v = hub_arg(l, "time"))) {
		timed = true;
		if (!hub_number(h, "level", "time", v, 0.001, 1e7, false, &time_left))
			return;
		if ((v = hub_arg(l, "moves"))) {
			if (!hub_number(h, "level", "moves", v, 1, 10000, true, &x))
				return;
			moves_left = (int)x;
		}
		if ((v = hub_arg(l, "inc")) && !hub_number(h, "level", "inc", v, 0, 1e6, false, &inc))
			return;
	} else if (hub_arg(l, "moves") || hub_arg(l, "inc")) {
		hub_error(h, "level: moves= and inc= go with time=");
		return;
	}
	if (!lim.depth && !lim.movetime && !timed && !infinite)
		lim.movetime = h->srv->default_movetime;
	h->lim = lim;
	h->timed = timed;
	h->infinite = infinite;
	h->time_left = time_left;
	h->moves_left = moves_left;
	h->inc = inc;
}

static int set_param(hub *h, const hub_line *l)
{
	const char *name = hub_arg(l, "name"), *value = hub_arg(l, "value");
	if (!name || !value) {
		hub_error(h, "set-param needs name=... value=...");
		return 0;
	}
	char **slot = NULL;
	double x;
	if (!strcmp(name, "variant")) {
		const pk_variant *v;
		if (!hub_variant(value, &v))
			hub_error(h, "set-param variant=%s: english, normal (International draughts) or frisian is expected", value);
		else if (h->ready && v != h->v)
			hub_error(h, "set-param variant: can only be set before init");
		else if (v != h->v) {
			h->v = v;
			if (v) {
				pk_vpos p;
				vpos_start(v, &p);
				vgame_reset(h, &p);
			} else {
				pk_pos p;
				pos_start(&p);
				play_init_english(&h->g, &p, false);
			}
			h->no_position = false;
		}
		return 0;
	} else if (!strcmp(name, "book")) {
		if (strcmp(value, "true") && strcmp(value, "false"))
			hub_error(h, "set-param book=%s: true or false is expected", value);
		else
			h->use_book = !strcmp(value, "true");
		return 0;
	} else if (!strcmp(name, "notation")) {
		if (strcmp(value, "hub") && strcmp(value, "pdn"))
			hub_error(h, "set-param notation=%s: hub or pdn is expected", value);
		else
			h->pdn_notation = !strcmp(value, "pdn");
		return 0;
	} else if (!strcmp(name, "hash")) {
		if (!hub_number(h, "set-param", "hash", value, 1, 65536, true, &x))
			return 0;
		slot = &h->params.hash;
	} else if (!strcmp(name, "threads")) {
		if (!hub_number(h, "set-param", "threads", value, 1, 64, true, &x))
			return 0;
		slot = &h->params.threads;
	} else if (!strcmp(name, "egdb"))
		slot = &h->params.egdb;
	else if (!strcmp(name, "egdb-cache")) {
		if (!hub_number(h, "set-param", "egdb-cache", value, 0, 1 << 20, true, &x))
			return 0;
		slot = &h->params.egdb_cache;
	} else
		return 0;   /* unknown parameters are ignored, as the protocol asks */
	if (h->ready) {
		hub_error(h, "set-param %s: can only be set before init", name);
		return 0;
	}
	if (text_replace(slot, value) < 0)
		hub_error(h, "set-param %s: out of memory (the value is not changed)", name);
	return 0;
}

static int init(hub *h)
{
	if (h->ready)
		return 0;
	char err[400] = "";
	if (h->v) {
		/* another variant: its engine, the table and threads as set; its own weights */
		long hash = h->params.hash ? strtol(h->params.hash, NULL, 10) : 64;
		long threads = h->params.threads ? strtol(h->params.threads, NULL, 10) : 1;
		pk_vengine *ve = vengine_new((size_t)(hash > 0 ? hash : 64));
		if (!ve || !(h->ge = gengine_new(NULL, ve))) {
			hub_error(h, "init: out of memory");
			h->init_failed = true;
			return -1;
		}
		vengine_set_threads(ve, (int)(threads > 0 ? threads : 1));
		h->bk = h->use_book ? book_default_for(h->v, err, sizeof err) : NULL;   /* none ships: none */
		h->init_failed = false;
		h->ready = true;
		return 0;
	}
	if (h->srv->init(h->srv->ctx, &h->params, h->use_book, &h->e, &h->bk, err, sizeof err) < 0) {
		hub_error(h, "init: %s", err[0] ? err : "the engine could not be set up");
		h->init_failed = true;
		return -1;
	}
	if (!(h->ge = gengine_lend(h->e, NULL))) {
		hub_error(h, "init: out of memory");
		h->init_failed = true;
		return -1;
	}
	h->init_failed = false;
	h->ready = true;
	return 0;
}

static void run_line(hub *h, char *line)
{
	hub_line l;
	char *cmd = hub_parse(line, &l);
	if (!cmd)
		return;
	if (!strcmp(cmd, "hub")) {
		say(h, "id name=pdnkit version=%s author=\"the pdnkit authors\"", h->srv->version);
		say(h, "param name=variant value=%s type=enum values=\"english normal frisian\"",
		    !h->v ? "english" : h->v->gametype == 20 ? "normal" : "frisian");
		say(h, "param name=book value=%s type=bool", h->use_book ? "true" : "false");
		say(h, "param name=hash value=%s type=int min=1 max=65536", h->params.hash ? h->params.hash : "64");
		say(h, "param name=threads value=%s type=int min=1 max=64", h->params.threads ? h->params.threads : "1");
		say(h, "param name=egdb value=\"%s\" type=string", h->params.egdb ? h->params.egdb : "");
		say(h, "param name=egdb-cache value=%s type=int min=0 max=1048576", h->params.egdb_cache ? h->params.egdb_cache : h->srv->egdb_cache_default);
		say(h, "param name=notation value=%s type=enum values=\"hub pdn\"", h->pdn_notation ? "pdn" : "hub");
		say(h, "wait");
	} else if (!strcmp(cmd, "set-param"))
		set_param(h, &l);
	else if (!strcmp(cmd, "init")) {
		if (init(h) == 0)
			say(h, "ready");
	} else if (!strcmp(cmd, "new-game")) {
		if (h->ge)
			gengine_new_game(h->ge);
		if (h->v) {
			pk_vpos p;
			vpos_start(h->v, &p);
			vgame_reset(h, &p);
			h->no_position = false;
			return;
		}
		pk_pos p;
		pos_start(&p);
		play_init_english(&h->g, &p, false);
		h->no_position = false;
	} else if (!strcmp(cmd, "pos")) {
		if (h->v)
			set_vposition(h, &l);
		else
			set_position(h, &l);
	}
	else if (!strcmp(cmd, "level"))
		set_level(h, &l);
	else if (!strcmp(cmd, "go")) {
		/* every go ends with done, so that a client waiting for it never waits forever */
		if (!h->ready && init(h) < 0) {
			say(h, "done");
			return;
		}
		if (h->no_position) {
			hub_error(h, "go: no position (the last pos was refused)");
			say(h, "done");
			return;
		}
		const char *mode = l.n > 0 ? l.name[0] : "think";
		go(h, mode);
	} else if (!strcmp(cmd, "ping"))
		say(h, "pong");
	else if (!strcmp(cmd, "quit"))
		h->quit = true;
	else if (!strcmp(cmd, "stop") || !strcmp(cmd, "ponder-hit"))
		;   /* no search is running: nothing to stop */
	else if (!strcmp(cmd, "fen")) {
		/* An extension for scripts: the current position as FEN and in Hub's form. */
		char fen[400], hp[80];
		if (h->v) {
			vfen_format(&h->g.pos.x, fen, sizeof fen);
			hub_vpos_text(&h->g.pos.x, hp, sizeof hp);
			say(h, "info fen=\"%s\" pos=%s", fen, hp);
			return;
		}
		fen_format(&h->g.pos.e, fen, sizeof fen);
		hub_pos_text(&h->g.pos.e, hp);
		say(h, "info fen=\"%s\" pos=%s", fen, hp);
	}
}


static char *copy_or_null(const char *s, bool *ok)
{
	if (!s)
		return NULL;
	char *c = strdup(s);
	if (!c)
		*ok = false;
	return c;
}

int hubserve_run(const pk_hub_server *srv, int in_fd, FILE *out)
{
	hub *h = calloc(1, sizeof *h);
	if (!h)
		return -1;
	h->srv = srv;
	h->out = out;
	h->in_fd = in_fd;
	h->pdn_notation = srv->pdn_notation;
	h->use_book = srv->use_book;
	h->lim.movetime = srv->default_movetime;
	bool ok = true;
	if (srv->defaults) {
		h->params.hash = copy_or_null(srv->defaults->hash, &ok);
		h->params.threads = copy_or_null(srv->defaults->threads, &ok);
		h->params.egdb = copy_or_null(srv->defaults->egdb, &ok);
		h->params.egdb_cache = copy_or_null(srv->defaults->egdb_cache, &ok);
	}
	pk_pos start;
	pos_start(&start);
	h->g.draw_moves = PLAY_DRAW_MOVES;
	int rc = 0;
	if (!ok || play_init_english(&h->g, &start, false) < 0) {
		rc = -1;
		goto out;
	}
	char line[16384];
	while (!h->quit) {
		if (h->npending > 0) {
			snprintf(line, sizeof line, "%s", h->pending[0]);
			memmove(h->pending[0], h->pending[1], sizeof h->pending[0] * (size_t)(h->npending - 1));
			h->npending--;
		} else if (next_line(h, line, sizeof line, -1) < 0)
			break;
		run_line(h, line);
	}
out:
	gengine_free(h->ge);
	if (h->e)
		engine_free(h->e);
	book_free(h->bk);
	play_free(&h->g);
	free(h->params.hash);
	free(h->params.threads);
	free(h->params.egdb);
	free(h->params.egdb_cache);
	free(h);
	return rc;
}
