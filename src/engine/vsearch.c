/* The engine of the other variants: their evaluation, and the search of English draughts
 * instanced over rules/variant.c's positions (search_mb.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/eval.h"
#include "engine/search_mb.h"
#include "engine/vsearch.h"
#include "engine/vpattern.h"
#include "rules/pos.h"

/* The engine of a search: the mailbox instance of the English search (search_mb.c),
 * with this file's evaluation, the weights given and the root moves left out. */
struct pk_vengine {
	mb_engine *e;
	pk_vweights set_w;                     /* vengine_set_weights() */
	bool own_weights;
	pk_vmove exclude[VAR_MAX_MOVES];       /* root moves left out of the next search */
	int nexclude;
};

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
	bool found = false;
	for (int i = 0; i < nfitted && !found; i++)
		if (fitted[i].gametype == v->gametype) {
			*w = fitted[i].w;
			found = true;
		}
	if (!found)
		vweights_hand_set(v, w);
	w->pat = vpatterns_builtin(v);
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

/* Each variant's rows and columns of its squares, made once. */
#define NBOARDS 32
static uint8_t rows_of[NBOARDS][VAR_MAX_SQ + 1], cols_of[NBOARDS][VAR_MAX_SQ + 1];
static pthread_once_t boards_once = PTHREAD_ONCE_INIT;

static void boards_init(void)
{
	for (int i = 0; i < NBOARDS && variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		for (int q = 1; q <= variant_squares(v); q++) {
			int r, c;
			variant_square_rc(v, q, &r, &c);
			rows_of[i][q] = (uint8_t)r;
			cols_of[i][q] = (uint8_t)c;
		}
	}
}

static void board_rc(const pk_variant *v, const uint8_t **row, const uint8_t **col)
{
	pthread_once(&boards_once, boards_init);
	int i = (int)(v - variant_at(0));
	*row = rows_of[i];
	*col = cols_of[i];
}

/* Legal moves of the side to move less those of the other side. */
static int mobility(const pk_vpos *p)
{
	pk_vpos o = *p;
	o.stm = !p->stm;
	return vcount(p) - vcount(&o);
}

int veval(const pk_vpos *p, const pk_vweights *w) { return veval_mobility(p, w, mobility(p)); }

int veval_mobility(const pk_vpos *p, const pk_vweights *w, int mob)
{
	const uint8_t *row, *col;
	board_rc(p->v, &row, &col);
	int s = eval_static(p, w, row, col);
	int v = (p->stm == PK_WHITE ? s : -s) + w->w[VW_MOBILITY] * mob;
	if (w->pat)
		v += vpattern_eval(w->pat, p);
	return v;
}

void vfeatures(const pk_vpos *p, int *men, double f[VW_NUM])
{
	const uint8_t *row, *col;
	board_rc(p->v, &row, &col);
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

pk_vengine *vengine_new(size_t hash_mb)
{
	pk_vengine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (!(e->e = mb_engine_new(hash_mb ? hash_mb : 1))) {
		free(e);
		return NULL;
	}
	return e;
}

void vengine_free(pk_vengine *e)
{
	if (!e)
		return;
	mb_engine_free(e->e);
	free(e);
}

void vengine_set_weights(pk_vengine *e, const pk_vweights *w)
{
	e->own_weights = w != NULL;
	if (w)
		e->set_w = *w;
}

void vengine_set_features(pk_vengine *e, const pk_features *f) { mb_engine_set_features(e->e, f); }

int vengine_set_threads(pk_vengine *e, int n) { return mb_engine_set_threads(e->e, n); }

void vengine_new_game(pk_vengine *e) { mb_engine_new_game(e->e); }

int vengine_search(pk_vengine *e, const pk_vpos *root, const uint64_t *keys, int nkeys, const pk_limits *lim,
		   volatile sig_atomic_t *stop, void (*cb)(void *ctx, const pk_viteration *it), void *ctx,
		   pk_vresult *out)
{
	pk_vweights w;
	if (e->own_weights)
		w = e->set_w;
	else
		vweights_for(root->v, &w);
	mb_engine_set_weights(e->e, &w);
	e->e->v = root->v;
	int dp = vdraw_kings_only_plies(root->v);
	e->e->draw_plies = dp > 0 ? dp : 1 << 20;   /* 0: the variant has no such count */
	e->e->exclude = e->exclude;
	e->e->nexclude = e->nexclude;
	mb_pos r;
	mb_pos_of(root, &r);
	pk_history h = { keys, nkeys, 0 };
	pk_limits l = *lim;
	l.exclude = NULL;
	l.nexclude = 0;
	int rc = mb_engine_search(e->e, &r, &h, &l, stop, cb, ctx, out);
	e->nexclude = 0;
	e->e->nexclude = 0;
	return rc;
}

void vengine_exclude(pk_vengine *e, const pk_vmove *m, int n)
{
	if (n > VAR_MAX_MOVES)
		n = VAR_MAX_MOVES;
	memcpy(e->exclude, m, sizeof *m * (size_t)n);
	e->nexclude = n;
}
