/* One engine for every variant, for the code that asks a position a ply (analyze,
 * annotate, the match referee): English draughts' engine (engine/search.h) or another
 * variant's (engine/vsearch.h, the same search instanced over its board), searched
 * through one call over rules/gpos.h's positions. The choice is made once a search, never
 * at a node. */
#ifndef PK_GENGINE_H
#define PK_GENGINE_H

#include "engine/search.h"
#include "engine/vsearch.h"
#include "rules/gpos.h"

#define GPV_MAX 64

typedef struct {
	int depth;
	int score;                  /* the side to move's view */
	uint64_t nodes;
	double seconds;
	pk_gmove pv[GPV_MAX];
	int npv;
} pk_giteration;

typedef struct {
	pk_gmove best;
	bool has_move, forced;
	pk_giteration last;
	bool in_egdb;               /* English draughts: the root is in the databases */
	pk_egdb_result egdb;
} pk_gresult;

typedef void (*pk_giteration_cb)(void *ctx, const pk_giteration *it);

typedef struct pk_gengine pk_gengine;

/* An engine for English draughts' positions (e) and the other variants' (ve), either
 * NULL when none is wanted; both taken over. NULL when out of memory (those given are
 * freed). */
pk_gengine *gengine_new(pk_engine *e, pk_vengine *ve);
/* The same with English draughts' engine lent, not taken over: gengine_free leaves it
 * (a server's pool of engines, each lent to one search at a time); ve is taken over. */
pk_gengine *gengine_lend(pk_engine *e, pk_vengine *ve);
void gengine_free(pk_gengine *g);
/* The English engine inside, and the other variants' (NULL when none). */
pk_engine *gengine_english(pk_gengine *g);
pk_vengine *gengine_other(pk_gengine *g);
/* The other variants' engine, when it had none (taken over). */
void gengine_set_other(pk_gengine *g, pk_vengine *ve);
void gengine_new_game(pk_gengine *g);
/* Search root (-1 when the engine has none of its family) under lim; h: the game's positions
 * before it (keys by gpos_key); exclude: root moves left out. As engine_search. */
int gengine_search(pk_gengine *g, const pk_gpos *root, const pk_history *h, const pk_limits *lim,
		   const pk_gmove *exclude, int nexclude, volatile sig_atomic_t *stop, pk_giteration_cb cb, void *ctx,
		   pk_gresult *out);

/* The features a search of p runs with: English draughts' engine's, or the other
 * variants' with p's variant's own defaults (features_for_variant). -1 when the engine has
 * none of p's family. */
int gengine_features(const pk_gengine *g, const pk_gpos *p, pk_features *f);

/* ---- the book (engine/bookmove.c) ---- */
struct pk_book;
/* The move the engine takes from the book at p (a book of p's variant; NULL: none): the
 * most played that was played in at least book-min of the book's games and scored at
 * least book-score for its side in them. */
bool gengine_book_move(const pk_gengine *g, const struct pk_book *bk, const pk_gpos *p, pk_gmove *out);
/* The move of root with a book: gengine_book_move's, checked by a search when the feature
 * book-check is on and the limits are bounded (*from_book then says whether the book's
 * move was kept; unchecked, out->forced is set and nothing was searched); else
 * gengine_search. */
int gengine_book_search(pk_gengine *g, const struct pk_book *bk, const pk_gpos *root, const pk_history *h,
			const pk_limits *lim, volatile sig_atomic_t *stop, pk_giteration_cb cb, void *ctx,
			pk_gresult *out, bool *from_book);

#endif
