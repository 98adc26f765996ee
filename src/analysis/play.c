/* A game being played: moves, take-backs, claimed draws, PDN, the clock, and thinking on
 * a thread of its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/play.h"
#include "base/pool.h"
#include "pdn/movenum.h"
#include "rules/fen.h"

static int grow(pk_play *g, int need)
{
	if (need <= g->cap)
		return 0;
	int cap = g->cap ? g->cap * 2 : 256;
	while (cap < need)
		cap *= 2;
	pk_gmove *m = realloc(g->moves, (size_t)cap * sizeof *m);
	if (!m)
		return -1;
	g->moves = m;
	uint64_t *k = realloc(g->keys, (size_t)(cap + 1) * sizeof *k);
	if (!k)
		return -1;
	g->keys = k;
	int *r = realloc(g->rev, (size_t)(cap + 1) * sizeof *r);
	if (!r)
		return -1;
	g->rev = r;
	g->cap = cap;
	return 0;
}

int play_init(pk_play *g, const pk_gpos *start, bool setup)
{
	int draw_moves = g->draw_moves > 0 ? g->draw_moves : PLAY_DRAW_MOVES;
	play_free(g);
	g->start = *start;
	g->setup = setup;
	g->pos = *start;
	g->draw_moves = draw_moves;
	if (grow(g, 1) < 0)
		return -1;
	g->keys[0] = gpos_key(start);
	g->rev[0] = 0;
	return 0;
}

int play_init_english(pk_play *g, const pk_pos *start, bool setup)
{
	pk_gpos s;
	gpos_english(&s, start);
	return play_init(g, &s, setup);
}

void play_free(pk_play *g)
{
	free(g->moves);
	free(g->keys);
	free(g->rev);
	int dm = g->draw_moves;
	memset(g, 0, sizeof *g);
	g->draw_moves = dm;
}

/* A king's plain move (no capture, no man moved): what the move-count rules count. */
static bool reversible(const pk_gpos *p, const pk_gmove *m)
{
	if (!p->v)
		return move_is_reversible(&p->e, &m->e);
	int pc = p->x.sq[m->x.from];
	return m->x.ncap == 0 && (pc == VP_WKING || pc == VP_BKING);
}

int play_move(pk_play *g, const pk_gmove *m)
{
	if (grow(g, g->nply + 1) < 0)
		return -1;
	bool rv = reversible(&g->pos, m);
	pk_gpos q;
	gpos_make(&g->pos, m, &q);
	g->moves[g->nply++] = *m;
	g->pos = q;
	g->keys[g->nply] = gpos_key(&q);
	g->rev[g->nply] = rv ? g->rev[g->nply - 1] + 1 : 0;
	return 0;
}

int play_move_english(pk_play *g, const pk_move *m)
{
	pk_gmove x;
	x.e = *m;
	return play_move(g, &x);
}

void play_pos_at(const pk_play *g, int i, pk_gpos *out)
{
	pk_gpos p = g->start;
	for (int k = 0; k < i && k < g->nply; k++) {
		pk_gpos q;
		gpos_make(&p, &g->moves[k], &q);
		p = q;
	}
	*out = p;
}

int play_takeback(pk_play *g, int n)
{
	if (n > g->nply)
		n = g->nply;
	if (n <= 0)
		return 0;
	g->nply -= n;
	play_pos_at(g, g->nply, &g->pos);
	return n;
}

int play_load(pk_play *g, const pk_replay *rp, int plies)
{
	if (!rp->complete)
		return -1;
	if (rp->variant_replayed) {
		const pk_vreplay *vr = &rp->vr;
		if (!vr->ord && vr->plies > 0)
			return -1;
		if (plies < 0 || plies > vr->plies)
			plies = vr->plies;
		pk_gpos s;
		gpos_variant(&s, &vr->start);
		if (play_init(g, &s, vr->custom_start) < 0)
			return -1;
		pk_vmovelist *ml = malloc(sizeof *ml);
		if (!ml)
			return -1;
		int rc = 0;
		for (int i = 0; i < plies && rc == 0; i++) {
			int n = vgen(&g->pos.x, ml);
			pk_gmove m;
			if (vr->ord[i] < 0 || vr->ord[i] >= n) {
				rc = -1;
				break;
			}
			m.x = ml->m[vr->ord[i]];
			rc = play_move(g, &m);
		}
		free(ml);
		return rc;
	}
	if (!rp->supported)
		return -1;
	if (plies < 0 || plies > rp->nply)
		plies = rp->nply;
	if (play_init_english(g, &rp->start, rp->custom_start) < 0)
		return -1;
	for (int i = 0; i < plies; i++)
		if (play_move_english(g, &rp->plies[i].move) < 0)
			return -1;
	return 0;
}

int play_repetitions(const pk_play *g)
{
	int n = 1;
	for (int i = g->nply - 2, back = 2; i >= 0 && back <= g->rev[g->nply]; i -= 2, back += 2)
		if (g->keys[i] == g->keys[g->nply])
			n++;
	return n;
}

/* Another variant's own draw rule met by the game (rules/vdraw.c), its sentence, or NULL;
 * the rule's counts at the game's position into *d. */
static const char *variant_drawn_counts(const pk_play *g, pk_vdraw *d)
{
	vdraw_init(d);
	pk_gpos p = g->start;
	const char *why = NULL;
	for (int i = 0; i < g->nply; i++) {
		pk_gpos q;
		gpos_make(&p, &g->moves[i], &q);
		why = vdraw_after(d, &p.x, &g->moves[i].x, &q.x);
		p = q;
	}
	return why;
}

static const char *variant_drawn(const pk_play *g)
{
	pk_vdraw d;
	return variant_drawn_counts(g, &d);
}

int play_status(const pk_play *g)
{
	if (gpos_count(&g->pos) == 0)
		return PLAY_NO_MOVE;
	if (play_repetitions(g) >= 3)
		return PLAY_REPETITION;
	if (g->pos.v ? variant_drawn(g) != NULL : g->rev[g->nply] >= 2 * g->draw_moves)
		return PLAY_MOVE_RULE;
	return PLAY_ON;
}

int play_status_result(const pk_play *g, int status)
{
	switch (status) {
	case PLAY_NO_MOVE:
		/* the side to move has lost: "0-1" when it is the side that moves first */
		return gpos_stm(&g->pos) == gpos_first(&g->pos) ? RES_WHITE_WINS : RES_BLACK_WINS;
	case PLAY_REPETITION:
	case PLAY_MOVE_RULE:
		return RES_DRAW;
	default:
		return RES_NONE;
	}
}

static bool no_pieces(const pk_gpos *p)
{
	if (!p->v)
		return p->e.side[p->e.stm] == 0;
	int n = variant_squares(p->v);
	for (int s = 1; s <= n; s++) {
		int pc = p->x.sq[s];
		if (pc && ((pc == VP_WMAN || pc == VP_WKING) == (p->x.stm == PK_WHITE)))
			return false;
	}
	return true;
}

const char *play_status_text(const pk_play *g, int status)
{
	bool black = gpos_stm(&g->pos) == PK_BLACK;
	switch (status) {
	case PLAY_NO_MOVE:
		if (no_pieces(&g->pos))
			return black ? "Black has no pieces left: White wins" : "White has no pieces left: Black wins";
		return black ? "Black has no legal move: White wins" : "White has no legal move: Black wins";
	case PLAY_REPETITION:
		return "draw by threefold repetition";
	case PLAY_MOVE_RULE:
		if (g->pos.v) {
			const char *why = variant_drawn(g);
			return why ? why : "draw by the variant's move-count rule";
		}
		return "draw by the move-count rule (no capture and no man moved)";
	default:
		return "the game goes on";
	}
}

pk_history play_history(const pk_play *g)
{
	pk_history h = { g->keys, g->nply, g->rev[g->nply], 0 };
	if (g->pos.v) {
		pk_vdraw d;
		variant_drawn_counts(g, &d);
		h.ending = vdraw_ending_count(&d, &g->pos.x);
	}
	return h;
}

void play_move_text(const pk_play *g, int i, char *buf, size_t size)
{
	pk_gpos p;
	play_pos_at(g, i, &p);
	if (!p.v) {
		char mv[PK_MOVE_STRLEN];
		pdn_move_string(&p.e, &g->moves[i].e, false, mv);
		snprintf(buf, size, "%s", mv);
	} else {
		vmove_pdn(&p.x, &g->moves[i].x, buf, size);
	}
}

/* A tag value with quotes and backslashes escaped. */
static int put_tag(pk_sink sink, void *ctx, const char *name, const char *value)
{
	char buf[600];
	size_t n = (size_t)snprintf(buf, sizeof buf, "[%s \"", name);
	for (const char *s = value ? value : "?"; *s && n < sizeof buf - 8; s++) {
		if (*s == '"' || *s == '\\')
			buf[n++] = '\\';
		buf[n++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
	}
	n += (size_t)snprintf(buf + n, sizeof buf - n, "\"]\n");
	return sink(ctx, buf, n);
}

int play_write_pdn(const pk_play *g, const pk_play_tags *t, pk_sink sink, void *ctx)
{
	const char *res = t->result == RES_NONE ? "*" : result_string(t->result);
	if (put_tag(sink, ctx, "Event", t->event) || put_tag(sink, ctx, "Site", t->site) ||
	    put_tag(sink, ctx, "Date", t->date) || put_tag(sink, ctx, "Black", t->black) ||
	    put_tag(sink, ctx, "White", t->white) || put_tag(sink, ctx, "Result", res))
		return -1;
	if (t->time_control && put_tag(sink, ctx, "TimeControl", t->time_control))
		return -1;
	if (g->start.v) {
		char gt[16];
		snprintf(gt, sizeof gt, "%d", g->start.v->gametype);
		if (put_tag(sink, ctx, "GameType", gt))
			return -1;
	}
	if (g->setup) {
		char fen[600];
		gpos_fen(&g->start, fen, sizeof fen);
		if (put_tag(sink, ctx, "SetUp", "1") || put_tag(sink, ctx, "FEN", fen))
			return -1;
	}
	/* The move text, wrapped before column 80. */
	char line[128];
	size_t len = 0;
	pk_gpos p = g->start;
	int first = gpos_first(&g->start), stm0 = gpos_stm(&g->start);
	for (int i = 0; i <= g->nply; i++) {
		char tok[PK_MOVE_STRLEN + 400];
		int k = 0;
		if (i < g->nply) {
			/* movenum_* count from Black's move as English draughts does: another
			 * variant's first mover plays that part */
			int as_stm = gpos_stm(&p) == first ? PK_BLACK : PK_WHITE, as_start = stm0 == first ? PK_BLACK : PK_WHITE;
			k = movenum_token(movenum_at(1, as_start, i), as_stm, i == 0, tok, sizeof tok);
			if (k)
				tok[k++] = ' ';
			if (!p.v) {
				char mv[PK_MOVE_STRLEN];
				pdn_move_string(&p.e, &g->moves[i].e, false, mv);
				snprintf(tok + k, sizeof tok - (size_t)k, "%s", mv);
			} else {
				vmove_text(p.v, &g->moves[i].x, false, tok + k, sizeof tok - (size_t)k);
			}
			pk_gpos q;
			gpos_make(&p, &g->moves[i], &q);
			p = q;
		} else if (t->termination) {
			k = snprintf(tok, sizeof tok, "{%s} %s", t->termination, res);
		} else {
			k = snprintf(tok, sizeof tok, "%s", res);
		}
		size_t tl = strlen(tok);
		if (len && len + 1 + tl > 79) {
			line[len++] = '\n';
			if (sink(ctx, line, len))
				return -1;
			len = 0;
		}
		if (tl >= sizeof line - 2) {    /* a long comment: on its own */
			if ((len && sink(ctx, line, len)) || sink(ctx, tok, tl) || sink(ctx, "\n", 1))
				return -1;
			len = 0;
			continue;
		}
		if (len)
			line[len++] = ' ';
		memcpy(line + len, tok, tl);
		len += tl;
	}
	line[len++] = '\n';
	line[len++] = '\n';
	return sink(ctx, line, len);
}

/* ---- the clock ---- */

/* One number with its unit: "5m", "2s", "1h", "30" (seconds). */
static const char *clock_part(const char *s, double *out)
{
	char *end;
	if (!(*s >= '0' && *s <= '9'))
		return NULL;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return NULL;
	double unit = 1;
	if (*end == 'h')
		unit = 3600, end++;
	else if (*end == 'm')
		unit = 60, end++;
	else if (*end == 's')
		end++;
	*out = v * unit;
	return end;
}

int clock_parse(const char *text, double *base, double *inc)
{
	double b = 0, i = 0;
	const char *s = clock_part(text, &b);
	if (!s)
		return -1;
	if (*s == '+') {
		s = clock_part(s + 1, &i);
		if (!s)
			return -1;
	}
	if (*s || b <= 0 || b > 1e6 || i > 3600)
		return -1;
	*base = b;
	*inc = i;
	return 0;
}

void clock_init(pk_clock *c, double base, double inc)
{
	c->base = base;
	c->inc = inc;
	c->left[0] = c->left[1] = base;
}

double clock_budget(const pk_clock *c, int side)
{
	return clock_share(c->left[side], c->inc, 0);
}

bool clock_charge(pk_clock *c, int side, double spent)
{
	c->left[side] -= spent;
	if (c->left[side] <= 0) {
		c->left[side] = 0;
		return false;
	}
	c->left[side] += c->inc;
	return true;
}

void clock_format(double s, char *buf, size_t size)
{
	if (s < 0)
		s = 0;
	long t = (long)(s * 10 + 0.5);
	long h = t / 36000, m = t / 600 % 60, sec = t / 10 % 60, tenth = t % 10;
	if (h)
		snprintf(buf, size, "%ld:%02ld:%02ld", h, m, sec);
	else
		snprintf(buf, size, "%ld:%02ld.%ld", m, sec, tenth);
}

/* ---- thinking on a thread of its own ---- */

typedef struct {
	pk_engine *e;
	const pk_pos *root;
	const pk_history *h;
	const pk_limits *lim;
	volatile sig_atomic_t *stop;
	pk_iteration_cb cb;
	void *cbctx;
	void (*watch)(void *wctx, const atomic_bool *done);
	void *wctx;
	pk_result *out;
	const pk_book *bk;
	bool *from_book;
	/* any variant's search instead (g set) */
	pk_gengine *g;
	const pk_gpos *groot;
	pk_giteration_cb gcb;
	pk_gresult *gout;
	atomic_int next;
	atomic_bool done;
	int rc;
} think_job;

/* The calling thread searches; the other watches. Without a second thread, the calling
 * thread watches after the search. */
static void think_thread(int i, void *arg)
{
	think_job *j = arg;
	if (i == 0 && j->g) {
		j->rc = gengine_book_search(j->g, j->bk, j->groot, j->h, j->lim, j->stop, j->gcb, j->cbctx, j->gout,
					    j->from_book);
		atomic_store(&j->done, true);
	} else if (i == 0) {
		j->rc = j->bk ? engine_book_search(j->e, j->bk, j->root, j->h, j->lim, j->stop, j->cb, j->cbctx, j->out,
						   j->from_book)
			      : engine_search(j->e, j->root, j->h, j->lim, j->stop, j->cb, j->cbctx, j->out);
		atomic_store(&j->done, true);
	}
	if (atomic_fetch_add(&j->next, 1) == 0) {
		j->watch(j->wctx, &j->done);
		if (!atomic_load(&j->done))
			*j->stop = 1;
	}
}

static int think(think_job *j)
{
	bool ignored;
	if (!j->from_book)
		j->from_book = &ignored;
	*j->from_book = false;
	atomic_init(&j->next, 0);
	atomic_init(&j->done, false);
	pool_run(2, think_thread, j);
	return j->rc;
}

int play_think(pk_engine *e, const pk_pos *root, const pk_history *h, const pk_limits *lim,
	       volatile sig_atomic_t *stop, pk_iteration_cb cb, void *cbctx,
	       void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pk_result *out)
{
	return play_think_book(e, NULL, root, h, lim, stop, cb, cbctx, watch, wctx, out, NULL);
}

int play_think_book(pk_engine *e, const pk_book *bk, const pk_pos *root, const pk_history *h, const pk_limits *lim,
		    volatile sig_atomic_t *stop, pk_iteration_cb cb, void *cbctx,
		    void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pk_result *out, bool *from_book)
{
	think_job j = { .e = e, .root = root, .h = h, .lim = lim, .stop = stop, .cb = cb, .cbctx = cbctx,
			.watch = watch, .wctx = wctx, .out = out, .bk = bk, .from_book = from_book };
	return think(&j);
}

int play_gthink(pk_gengine *g, const pk_book *bk, const pk_gpos *root, const pk_history *h, const pk_limits *lim,
		volatile sig_atomic_t *stop, pk_giteration_cb cb, void *cbctx,
		void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pk_gresult *out, bool *from_book)
{
	think_job j = { .g = g, .groot = root, .h = h, .lim = lim, .stop = stop, .gcb = cb, .cbctx = cbctx,
			.watch = watch, .wctx = wctx, .gout = out, .bk = bk, .from_book = from_book };
	return think(&j);
}
