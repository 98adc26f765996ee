/* A book move checked by the search (search feature book-check): the engine searches the
 * position as if it had no book, and plays the book's move unless the search, looking at
 * that move alone to the same depth, scores it more than the margin below its own best.
 * A book move played in fewer than book-min of the book's games is not taken at all, nor
 * (search feature book-score) one whose games went badly for the side that played it. */
#include <string.h>
#include "book/book.h"
#include "engine/search.h"
#include "engine/search_int.h"

/* The share of the limits the first search takes; the book move's search the rest. */
#define FIRST_SHARE 0.7

/* Whether the games of a book move scored at least min_pct% for the side that played it,
 * a win 1, a draw 1/2, with half a point of one game more added (so that one lost game
 * is not a certain loss). A move with no games (scored by book expand) passes. */
static bool book_move_scores(const pk_book_move *m, int stm, int min_pct)
{
	if (min_pct <= 0 || m->games == 0)
		return true;
	uint64_t wins = stm == PK_BLACK ? m->black_wins : m->white_wins;
	return 100 * (2 * wins + m->draws + 1) >= (uint64_t)min_pct * 2 * ((uint64_t)m->games + 1);
}

bool engine_book_move(const pk_engine *e, const pk_book *bk, const pk_pos *p, pk_move *out)
{
	pk_book_move mv[PK_MAX_MOVES];
	/* the most played move that was played often enough and scored well enough; probe
	 * lists the most played first (ties: the better engine score; with no games, the
	 * best scored) */
	int n = bk ? book_probe(bk, p, mv, PK_MAX_MOVES) : 0, k = 0;
	while (k < n && (mv[k].games < (uint32_t)e->f.book_min || !book_move_scores(&mv[k], p->stm, e->f.book_score)))
		k++;
	if (k == n)
		return false;
	*out = mv[k].move;
	return true;
}

int engine_book_search(pk_engine *e, const pk_book *bk, const pk_pos *root, const pk_history *h,
		       const pk_limits *lim, volatile sig_atomic_t *stop, pk_iteration_cb cb, void *ctx,
		       pk_result *out, bool *from_book)
{
	*from_book = false;
	pk_move bm;
	if (lim->nexclude > 0 || !engine_book_move(e, bk, root, &bm))
		return engine_search(e, root, h, lim, stop, cb, ctx, out);
	int margin = e->f.book_check;
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
	if (engine_search(e, root, h, &first, stop, cb, ctx, out) < 0)
		return -1;
	if (!out->has_move || out->forced || move_same_effect(&out->best, &bm) || (stop && *stop)) {
		*from_book = out->has_move && move_same_effect(&out->best, &bm);
		return 0;
	}
	if (score_is_win(out->last.score) || out->last.depth <= 0)
		return 0;       /* a forced win or loss found: the search knows better */
	/* the book move alone, to the depth the search completed */
	pk_movelist ml;
	int n = gen_moves(root, &ml);
	pk_move others[PK_MAX_MOVES];
	int no = 0;
	for (int i = 0; i < n; i++)
		if (!move_same_effect(&ml.m[i], &bm))
			others[no++] = ml.m[i];
	pk_limits second = *lim;
	second.depth = out->last.depth;
	if (second.movetime > 0)
		second.movetime *= 1 - FIRST_SHARE;
	if (second.nodes > 0)
		second.nodes = (uint64_t)((double)second.nodes * (1 - FIRST_SHARE)) + 1;
	second.exclude = others;
	second.nexclude = no;
	pk_result r;
	if (engine_search(e, root, h, &second, stop, NULL, NULL, &r) < 0)
		return -1;
	if (r.has_move && r.last.depth >= out->last.depth && r.last.score >= out->last.score - margin) {
		pk_iteration it = out->last;   /* the search's effort, the book's move */
		*out = r;
		out->last.nodes += it.nodes;
		out->last.seconds += it.seconds;
		out->best = bm;
		*from_book = true;
	}
	return 0;
}
