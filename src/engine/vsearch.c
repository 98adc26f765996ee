/* The engine for the other variants: alpha-beta over rules/variant.c's positions. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/eval.h"
#include "engine/vsearch.h"
#include "rules/pos.h"

#define VINF 32000
#define VMAX_PLY 96
#define VGAME_MAX 1024

typedef struct {
	uint64_t key;
	int16_t score;
	int8_t depth;
	uint8_t flag;              /* 1 exact, 2 lower bound, 3 upper bound */
	uint8_t from, to;          /* the best move's ends */
} vtt_entry;

struct pk_vengine {
	vtt_entry *tt;
	size_t tt_mask;
	uint32_t history[VAR_MAX_SQ + 1][VAR_MAX_SQ + 1];
	/* the current search */
	const pk_variant *v;
	pk_vweights w;
	pk_vweights set_w;                     /* vengine_set_weights() */
	bool own_weights;
	uint8_t row[VAR_MAX_SQ + 1], col[VAR_MAX_SQ + 1];
	uint64_t nodes, node_limit;
	double t0, deadline;
	volatile sig_atomic_t *stop;
	bool stopped;
	uint64_t path[VGAME_MAX + VMAX_PLY];   /* keys of the game, then of the search */
	int base;
	pk_vmove pv[VMAX_PLY][VMAX_PLY];
	pk_vmovelist *ml;                      /* one list a ply, and one more */
	int pvlen[VMAX_PLY];
	pk_vmove exclude[VAR_MAX_MOVES];       /* root moves left out of the next search */
	int nexclude;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *const vweight_names[VW_NUM] = { "king", "advance", "centre", "mobility", "back_rank" };

/* By kind: flying kings are worth more, and short-king games reward the back row. */
void vweights_hand_set(const pk_variant *v, pk_vweights *w)
{
	memset(w, 0, sizeof *w);
	w->w[VW_KING] = v->flying ? 300 : 160;
	w->w[VW_ADVANCE] = v->flying ? 3 : 4;
	w->w[VW_CENTRE] = 4;
	w->w[VW_MOBILITY] = 2;
	w->w[VW_BACK_RANK] = v->flying ? 3 : 6;
}

int vweights_parse(const char *text, pk_vweights *w, int *gametype, char *err, size_t errsize)
{
	const char *names[VW_NUM + 1] = { "gametype" };
	memcpy(names + 1, vweight_names, sizeof vweight_names);
	int vals[VW_NUM + 1];
	vals[0] = 0;
	memcpy(vals + 1, w->w, sizeof w->w);
	if (weights_parse_named(text, names, VW_NUM + 1, vals, err, errsize) < 0)
		return -1;
	*gametype = vals[0];
	memcpy(w->w, vals + 1, sizeof w->w);
	return 0;
}

/* book/weights-*.txt as text (the Makefile builds them in), parsed once. */
extern const char *const vweights_texts[];
#define MAX_FITTED 8
static struct {
	int gametype;
	pk_vweights w;
} fitted[MAX_FITTED];
static int nfitted;
static pthread_once_t fitted_once = PTHREAD_ONCE_INIT;

static void read_fitted(void)
{
	for (int i = 0; vweights_texts[i] && nfitted < MAX_FITTED; i++) {
		pk_vweights w = { 0 };
		int gt;
		char err[160];
		if (vweights_parse(vweights_texts[i], &w, &gt, err, sizeof err) < 0)
			continue;   /* a broken file is caught by the tests */
		const pk_variant *v = variant_by_gametype(gt);
		if (!v)
			continue;
		pk_vweights base;
		vweights_hand_set(v, &base);
		if (vweights_parse(vweights_texts[i], &base, &gt, err, sizeof err) < 0)
			continue;
		base.tuned = true;
		fitted[nfitted].gametype = gt;
		fitted[nfitted++].w = base;
	}
}

void vweights_for(const pk_variant *v, pk_vweights *w)
{
	pthread_once(&fitted_once, read_fitted);
	for (int i = 0; i < nfitted; i++)
		if (fitted[i].gametype == v->gametype) {
			*w = fitted[i].w;
			return;
		}
	vweights_hand_set(v, w);
}

/* Sums over the board from White's view: men, kings, rows advanced by the men, men on
 * their own back row and on the central columns. */
typedef struct {
	int men, kings, advance, back, centre;
} vterms;

static void terms(const pk_vpos *p, const uint8_t *row, const uint8_t *col, vterms *t)
{
	const pk_variant *v = p->v;
	int n = variant_squares(v);
	int last = v->rows - 1, mid_lo = v->cols / 2 - 2, mid_hi = v->cols / 2 + 1;
	memset(t, 0, sizeof *t);
	for (int q = 1; q <= n; q++) {
		int pc = p->sq[q];
		if (!pc)
			continue;
		if (pc == VP_WKING || pc == VP_BKING) {
			t->kings += pc == VP_WKING ? 1 : -1;
			continue;
		}
		bool white = pc == VP_WMAN;
		int sign = white ? 1 : -1, r = row[q], c = col[q];
		int adv = white ? last - r : r;   /* rows from its own back row */
		t->men += sign;
		t->advance += sign * adv;
		if (adv == 0)
			t->back += sign;
		if (c >= mid_lo && c <= mid_hi)
			t->centre += sign;
	}
}

/* Material and position from White's view, without mobility. */
static int eval_static(const pk_vpos *p, const pk_vweights *w, const uint8_t *row, const uint8_t *col)
{
	vterms t;
	terms(p, row, col, &t);
	int last = p->v->rows - 1;
	return 100 * t.men + w->w[VW_KING] * t.kings + w->w[VW_ADVANCE] * t.advance * 7 / last +
	       w->w[VW_BACK_RANK] * t.back + w->w[VW_CENTRE] * t.centre;
}

static void board_rc(const pk_variant *v, uint8_t *row, uint8_t *col)
{
	int n = variant_squares(v);
	for (int q = 1; q <= n; q++) {
		int r, c;
		variant_square_rc(v, q, &r, &c);
		row[q] = (uint8_t)r;
		col[q] = (uint8_t)c;
	}
}

/* Legal moves of the side to move less those of the other side. */
static int mobility(const pk_vpos *p)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	pk_vpos o = *p;
	o.stm = !p->stm;
	int mine = vgen(p, ml), theirs = vgen(&o, ml);
	free(ml);
	return mine - theirs;
}

int veval(const pk_vpos *p, const pk_vweights *w)
{
	uint8_t row[VAR_MAX_SQ + 1], col[VAR_MAX_SQ + 1];
	board_rc(p->v, row, col);
	int s = eval_static(p, w, row, col);
	return (p->stm == PK_WHITE ? s : -s) + w->w[VW_MOBILITY] * mobility(p);
}

void vfeatures(const pk_vpos *p, int *men, double f[VW_NUM])
{
	uint8_t row[VAR_MAX_SQ + 1], col[VAR_MAX_SQ + 1];
	board_rc(p->v, row, col);
	vterms t;
	terms(p, row, col, &t);
	int sign = p->stm == PK_WHITE ? 1 : -1;
	*men = sign * t.men;
	f[VW_KING] = sign * t.kings;
	f[VW_ADVANCE] = sign * t.advance * 7.0 / (p->v->rows - 1);
	f[VW_BACK_RANK] = sign * t.back;
	f[VW_CENTRE] = sign * t.centre;
	f[VW_MOBILITY] = mobility(p);
}

static bool out_of_time(pk_vengine *e)
{
	if (e->stopped)
		return true;
	if ((e->nodes & 1023) == 0) {
		if ((e->stop && *e->stop) || (e->node_limit && e->nodes >= e->node_limit) ||
		    (e->deadline > 0 && now() >= e->deadline))
			e->stopped = true;
	}
	return e->stopped;
}

static void order(pk_vengine *e, pk_vmovelist *ml, const vtt_entry *t)
{
	/* The table's move first, then by history (insertion sort: lists are short). */
	uint32_t score[VAR_MAX_MOVES];
	for (int i = 0; i < ml->n; i++) {
		const pk_vmove *m = &ml->m[i];
		score[i] = e->history[m->from][m->to];
		if (t && t->from == m->from && t->to == m->to)
			score[i] = UINT32_MAX;
	}
	for (int i = 1; i < ml->n; i++) {
		pk_vmove m = ml->m[i];
		uint32_t s = score[i];
		int j = i - 1;
		while (j >= 0 && score[j] < s) {
			ml->m[j + 1] = ml->m[j];
			score[j + 1] = score[j];
			j--;
		}
		ml->m[j + 1] = m;
		score[j + 1] = s;
	}
}

/* The root's list without the moves vengine_exclude() named. */
static int leave_out(const pk_vengine *e, pk_vmovelist *ml)
{
	int k = 0;
	for (int i = 0; i < ml->n; i++) {
		bool out = false;
		for (int j = 0; j < e->nexclude && !out; j++)
			out = vmove_same(&ml->m[i], &e->exclude[j]);
		if (!out)
			ml->m[k++] = ml->m[i];
	}
	return ml->n = k;
}

static int search(pk_vengine *e, const pk_vpos *p, int depth, int alpha, int beta, int ply, uint64_t key)
{
	e->pvlen[ply] = 0;
	e->nodes++;
	if (out_of_time(e))
		return 0;
	/* A repetition along the game and the search: a draw. */
	int at = e->base + ply;
	e->path[at] = key;
	for (int i = at - 4; i >= 0 && i >= at - 100; i -= 2)
		if (e->path[i] == key)
			return 0;
	pk_vmovelist *ml = &e->ml[ply];
	int n = vgen(p, ml);
	if (n == 0)
		return -SCORE_WIN + ply;
	int forced = n == 1;             /* the position's moves, not those left in */
	if (ply == 0 && e->nexclude)
		n = leave_out(e, ml);
	bool captures = ml->m[0].ncap > 0;
	if ((depth <= 0 && !captures) || ply >= VMAX_PLY - 2) {
		/* The horizon: a quiet position is evaluated (captures go on). */
		int s = eval_static(p, &e->w, e->row, e->col);
		pk_vpos o = *p;
		o.stm = !p->stm;
		int theirs = vgen(&o, &e->ml[ply + 1]);
		return (p->stm == PK_WHITE ? s : -s) + e->w.w[VW_MOBILITY] * (n - theirs);
	}
	vtt_entry *t = &e->tt[key & e->tt_mask];
	bool hit = t->key == key;
	if (hit && t->depth >= depth && ply > 0) {
		int s = t->score;
		if (t->flag == 1 || (t->flag == 2 && s >= beta) || (t->flag == 3 && s <= alpha))
			return s;
	}
	order(e, ml, hit ? t : NULL);
	int best = -VINF, a0 = alpha;
	pk_vmove bm = ml->m[0];
	int next_depth = forced || captures ? depth : depth - 1;   /* forced moves and captures are free */
	if (depth <= 0)
		next_depth = 0;
	for (int i = 0; i < n; i++) {
		pk_vpos q;
		vmake(p, &ml->m[i], &q);
		uint64_t k = vpos_state_key(&q);
		int s;
		if (i == 0)
			s = -search(e, &q, next_depth, -beta, -alpha, ply + 1, k);
		else {
			s = -search(e, &q, next_depth, -alpha - 1, -alpha, ply + 1, k);
			if (s > alpha && s < beta)
				s = -search(e, &q, next_depth, -beta, -alpha, ply + 1, k);
		}
		if (e->stopped)
			break;
		if (s > best) {
			best = s;
			bm = ml->m[i];
			if (s > alpha) {
				alpha = s;
				e->pv[ply][0] = ml->m[i];
				int len = e->pvlen[ply + 1];
				memcpy(&e->pv[ply][1], e->pv[ply + 1], sizeof(pk_vmove) * (size_t)len);
				e->pvlen[ply] = len + 1;
				if (s >= beta) {
					if (!captures)
						e->history[bm.from][bm.to] += (uint32_t)(depth * depth + 1);
					break;
				}
			}
		}
	}
	if (e->stopped)
		return 0;
	if (ply == 0 && e->nexclude)
		return best;             /* a score of some moves only: not the position's */
	t->key = key;
	t->score = (int16_t)best;
	t->depth = (int8_t)(depth > 120 ? 120 : depth);
	t->flag = best >= beta ? 2 : best > a0 ? 1 : 3;
	t->from = bm.from;
	t->to = bm.to;
	return best;
}

pk_vengine *vengine_new(size_t hash_mb)
{
	pk_vengine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	size_t n = 1;
	while (n * 2 * sizeof(vtt_entry) <= (hash_mb ? hash_mb : 1) * 1024 * 1024)
		n *= 2;
	e->tt = calloc(n, sizeof *e->tt);
	if (!e->tt) {
		free(e);
		return NULL;
	}
	e->tt_mask = n - 1;
	e->ml = malloc(sizeof *e->ml * (VMAX_PLY + 1));
	if (!e->ml) {
		vengine_free(e);
		return NULL;
	}
	return e;
}

void vengine_free(pk_vengine *e)
{
	if (!e)
		return;
	free(e->tt);
	free(e->ml);
	free(e);
}

void vengine_set_weights(pk_vengine *e, const pk_vweights *w)
{
	e->own_weights = w != NULL;
	if (w)
		e->set_w = *w;
}

void vengine_new_game(pk_vengine *e)
{
	memset(e->tt, 0, (e->tt_mask + 1) * sizeof *e->tt);
	memset(e->history, 0, sizeof e->history);
}

int vengine_search(pk_vengine *e, const pk_vpos *root, const uint64_t *keys, int nkeys, const pk_limits *lim,
		   volatile sig_atomic_t *stop, void (*cb)(void *ctx, const pk_viteration *it), void *ctx,
		   pk_vresult *out)
{
	memset(out, 0, sizeof *out);
	e->v = root->v;
	if (e->own_weights)
		e->w = e->set_w;
	else
		vweights_for(root->v, &e->w);
	board_rc(root->v, e->row, e->col);
	if (nkeys > VGAME_MAX)
		keys += nkeys - VGAME_MAX, nkeys = VGAME_MAX;
	for (int i = 0; i < nkeys; i++)
		e->path[i] = keys[i];
	e->base = nkeys;
	e->nodes = 0;
	e->node_limit = lim->nodes;
	e->t0 = now();
	e->deadline = lim->movetime > 0 ? e->t0 + lim->movetime : 0;
	e->stop = stop;
	e->stopped = false;
	pk_vmovelist *ml = &e->ml[0];
	int nm = vgen(root, ml);
	if (nm && e->nexclude)
		nm = leave_out(e, ml);
	if (nm == 0) {
		e->nexclude = 0;
		out->last.score = -SCORE_WIN;
		return 0;
	}
	out->has_move = true;
	out->best = ml->m[0];
	if (nm == 1 && !e->nexclude) {
		out->forced = true;
		out->last.pv[0] = ml->m[0];
		out->last.npv = 1;
		out->last.score = veval(root, &e->w);
		return 0;
	}
	uint64_t key = vpos_state_key(root);
	int max_depth = lim->depth > 0 ? lim->depth : VMAX_PLY - 8;
	for (int d = 1; d <= max_depth; d++) {
		int s = search(e, root, d, -VINF, VINF, 0, key);
		if (e->stopped && d > 1)
			break;
		pk_viteration *it = &out->last;
		it->depth = d;
		it->score = s;
		it->nodes = e->nodes;
		it->seconds = now() - e->t0;
		it->npv = e->pvlen[0] < VPV_MAX ? e->pvlen[0] : VPV_MAX;
		memcpy(it->pv, e->pv[0], sizeof(pk_vmove) * (size_t)it->npv);
		if (it->npv > 0)
			out->best = it->pv[0];
		if (cb)
			cb(ctx, it);
		if (e->stopped)
			break;
		if (score_is_win(s) && score_plies(s) <= d)
			break;
		double t = now() - e->t0;
		if (e->deadline > 0 && t * 3 > lim->movetime)
			break;
	}
	out->last.nodes = e->nodes;
	out->last.seconds = now() - e->t0;
	e->nexclude = 0;
	return 0;
}

void vengine_exclude(pk_vengine *e, const pk_vmove *m, int n)
{
	if (n > VAR_MAX_MOVES)
		n = VAR_MAX_MOVES;
	memcpy(e->exclude, m, sizeof *m * (size_t)n);
	e->nexclude = n;
}
