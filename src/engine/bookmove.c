/* A book move checked by the search (search feature book-check), for every variant: the
 * engine searches the position as if it had no book, and plays the book's move unless the
 * search, looking at that move alone to the same depth, scores it more than the margin
 * below its own best. A book move played in fewer than book-min of the book's games is
 * not taken at all, nor (search feature book-score) one whose games went badly for the
 * side that played it. */
#include <stdlib.h>
#include <string.h>
#include "book/book.h"
#include "engine/gengine.h"
#include "engine/search_int.h"

/* The share of the limits the first search takes; the book move's search the rest. */
#define FIRST_SHARE 0.7

/* Whether a book move's games scored at least min_pct% for the side that played it (its
 * wins of them), a win 1, a draw 1/2, with half a point of one game more added (so that
 * one lost game is not a certain loss). A move with no games (scored by book expand)
 * passes. */
static bool book_move_scores(uint32_t games, uint32_t wins, uint32_t draws, int min_pct)
{
	if (min_pct <= 0 || games == 0)
		return true;
	return 100 * (2 * (uint64_t)wins + draws + 1) >= (uint64_t)min_pct * 2 * ((uint64_t)games + 1);
}

/* Whether a book move passes book-min and book-score. */
static bool book_move_taken(const pk_features *f, int stm, uint32_t games, uint32_t bw, uint32_t ww, uint32_t dr)
{
	return games >= (uint32_t)f->book_min && book_move_scores(games, stm == PK_BLACK ? bw : ww, dr, f->book_score);
}

/* The most played book move of p that was played often enough and scored well enough;
 * the probes list the most played first (ties: the better engine score; with no games,
 * the best scored). false when the book (NULL: none; of another variant: none) has none. */
static bool book_pick(const pk_features *f, const pk_book *bk, const pk_gpos *p, pk_gmove *out)
{
	if (!bk)
		return false;
	if (!p->v) {
		pk_book_move mv[PK_MAX_MOVES];
		int n = book_probe(bk, &p->e, mv, PK_MAX_MOVES);
		for (int k = 0; k < n && k < PK_MAX_MOVES; k++)
			if (book_move_taken(f, p->e.stm, mv[k].games, mv[k].black_wins, mv[k].white_wins, mv[k].draws)) {
				out->e = mv[k].move;
				return true;
			}
		return false;
	}
	if (book_variant(bk) != p->v)
		return false;
	pk_book_vmove *mv = malloc(sizeof *mv * VAR_MAX_MOVES);
	if (!mv)
		return false;
	int n = book_vprobe(bk, &p->x, mv, VAR_MAX_MOVES);
	bool found = false;
	for (int k = 0; k < n && k < VAR_MAX_MOVES && !found; k++)
		if (book_move_taken(f, p->x.stm, mv[k].games, mv[k].black_wins, mv[k].white_wins, mv[k].draws)) {
			out->x = mv[k].move;
			found = true;
		}
	free(mv);
	return found;
}

static bool engine_book_move(const pk_engine *e, const pk_book *bk, const pk_pos *p, pk_move *out)
{
	pk_gpos g;
	gpos_english(&g, p);
	pk_gmove m;
	if (!book_pick(&e->f, bk, &g, &m))
		return false;
	*out = m.e;
	return true;
}

bool gengine_book_move(const pk_gengine *g, const pk_book *bk, const pk_gpos *p, pk_gmove *out)
{
	pk_features f;
	return gengine_features(g, p, &f) == 0 && book_pick(&f, bk, p, out);
}

int gengine_book_search(pk_gengine *g, const pk_book *bk, const pk_gpos *root, const pk_history *h,
			const pk_limits *lim, volatile sig_atomic_t *stop, pk_giteration_cb cb, void *ctx,
			pk_gresult *out, bool *from_book)
{
	*from_book = false;
	pk_features f;
	pk_gmove bm;
	if (lim->nexclude > 0 || gengine_features(g, root, &f) < 0 || !book_pick(&f, bk, root, &bm))
		return gengine_search(g, root, h, lim, NULL, 0, stop, cb, ctx, out);
	int margin = f.book_check;
	bool bounded = lim->depth > 0 || lim->nodes > 0 || lim->movetime > 0;
	if (margin <= 0 || !bounded) {
		memset(out, 0, sizeof *out);
		out->best = bm;
		out->has_move = out->forced = true;
		*from_book = true;
		return 0;
	}
	pk_limits first = *lim;
	if (first.movetime > 0)
		first.movetime *= FIRST_SHARE;
	if (first.nodes > 0)
		first.nodes = (uint64_t)((double)first.nodes * FIRST_SHARE) + 1;
	if (gengine_search(g, root, h, &first, NULL, 0, stop, cb, ctx, out) < 0)
		return -1;
	if (!out->has_move || out->forced || gmove_same(root, &out->best, &bm) || (stop && *stop)) {
		*from_book = out->has_move && gmove_same(root, &out->best, &bm);
		return 0;
	}
	if (score_is_win(out->last.score) || out->last.depth <= 0)
		return 0;       /* a forced win or loss found: the search knows better */
	/* the book move alone, to the depth the search completed */
	int cap = root->v ? VAR_MAX_MOVES : PK_MAX_MOVES;
	pk_gmove *ml = malloc(sizeof *ml * (size_t)cap * 2);
	if (!ml)
		return -1;
	pk_gmove *others = ml + cap;
	int n = gpos_gen(root, ml, cap), no = 0;
	if (n < 0) {
		free(ml);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (!gmove_same(root, &ml[i], &bm))
			others[no++] = ml[i];
	pk_limits second = *lim;
	second.depth = out->last.depth;
	if (second.movetime > 0)
		second.movetime *= 1 - FIRST_SHARE;
	if (second.nodes > 0)
		second.nodes = (uint64_t)((double)second.nodes * (1 - FIRST_SHARE)) + 1;
	pk_gresult r;
	int rc = gengine_search(g, root, h, &second, others, no, stop, NULL, NULL, &r);
	free(ml);
	if (rc < 0)
		return -1;
	if (r.has_move && r.last.depth >= out->last.depth && r.last.score >= out->last.score - margin) {
		pk_giteration it = out->last;   /* the search's effort, the book's move */
		*out = r;
		out->last.nodes += it.nodes;
		out->last.seconds += it.seconds;
		out->best = bm;
		*from_book = true;
	}
	return 0;
}

/* English draughts' callers: the search's iterations and result as English draughts'. */
typedef struct {
	pk_iteration_cb cb;
	void *ctx;
	pk_iteration it;
} english_cb;

static void to_english(const pk_giteration *g, pk_iteration *it)
{
	memset(it, 0, sizeof *it);
	it->depth = g->depth;
	it->score = g->score;
	it->nodes = g->nodes;
	it->seconds = g->seconds;
	it->npv = g->npv;
	for (int i = 0; i < g->npv; i++)
		it->pv[i] = g->pv[i].e;
}

static void on_english(void *ctx, const pk_giteration *g)
{
	english_cb *x = ctx;
	to_english(g, &x->it);
	x->cb(x->ctx, &x->it);
}

int engine_book_search(pk_engine *e, const pk_book *bk, const pk_pos *root, const pk_history *h,
		       const pk_limits *lim, volatile sig_atomic_t *stop, pk_iteration_cb cb, void *ctx,
		       pk_result *out, bool *from_book)
{
	*from_book = false;
	pk_move bm;
	if (lim->nexclude > 0 || !engine_book_move(e, bk, root, &bm))
		return engine_search(e, root, h, lim, stop, cb, ctx, out);
	pk_gengine *g = gengine_lend(e, NULL);
	english_cb *x = malloc(sizeof *x);
	pk_gresult *r = malloc(sizeof *r);
	int rc = -1;
	if (g && x && r) {
		pk_gpos gr;
		gpos_english(&gr, root);
		x->cb = cb;
		x->ctx = ctx;
		rc = gengine_book_search(g, bk, &gr, h, lim, stop, cb ? on_english : NULL, x, r, from_book);
		memset(out, 0, sizeof *out);
		out->best = r->best.e;
		out->has_move = r->has_move;
		out->forced = r->forced;
		to_english(&r->last, &out->last);
		out->in_egdb = r->in_egdb;
		out->egdb = r->egdb;
	}
	free(r);
	free(x);
	gengine_free(g);
	return rc;
}
