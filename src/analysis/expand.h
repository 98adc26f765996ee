/* Drop-out expansion of an opening book: the book grows where it is most likely to be
 * needed. Every book move carries the engine's score; a leaf (a position after a book
 * move, not yet searched) has the priority  dropout * ply + the sum of the losses (best
 * score minus the move's score) of the moves leading to it, and the leaf with the lowest
 * priority (the earliest made among equals) is searched next: its best move, and the
 * next best ones within the margin, become book moves. */
#ifndef PK_EXPAND_H
#define PK_EXPAND_H

#include "book/book.h"
#include "engine/gengine.h"
#include "rules/gpos.h"

#define EXPAND_MAX_WIDTH 32

/* One position searched, for progress. */
typedef struct {
	long searched;               /* positions searched so far, this one included */
	int ply;                     /* from the root */
	long priority;
	const pk_gpos *pos;
	int n;                       /* the book moves found, best first */
	const pk_gmove *moves;
	const int *scores;
} pk_expand_step;

typedef struct {
	pk_limits lim;               /* each search's limits */
	long positions;              /* positions to search */
	int margin;                  /* keep moves within this of the best (hundredths of a man) */
	int width;                   /* at most this many book moves a position (1..EXPAND_MAX_WIDTH) */
	int dropout;                 /* the cost of a ply against a lost hundredth of a man */
	const pk_gpos *starts;       /* grow from these positions (each as if at ply 0), not
				      * from the root: positions of the book's tree, the moves
				      * leading to them added by the caller (as path moves) */
	int nstarts;
	const volatile sig_atomic_t *stop;
	void (*on_step)(void *ctx, const pk_expand_step *s);   /* may be NULL */
	void *ctx;
	/* Another searcher instead of e (may be NULL): the best move of pos with the moves
	 * exclude[0..nexclude) left out, into r (has_move, best, forced, last.score in
	 * hundredths for the side to move). 0, or -1 when it failed (it says why). */
	int (*search)(void *sctx, const pk_gpos *pos, const pk_gmove *exclude, int nexclude, pk_gresult *r);
	void *sctx;
} pk_expand_opts;

/* Grow b (rooted at root, of any variant: the book's) by o->positions searches with e
 * (or o->search). Returns the positions searched (fewer when every line ended or stop
 * was set), -1 when out of memory, -2 when o->search failed. */
long expand_book(pk_gengine *e, pk_bookb *b, const pk_gpos *root, const pk_expand_opts *o);

#endif
