/* The engine for the other variants (rules/variant.h): iterative deepening alpha-beta
 * (principal variation search) with captures searched past the horizon, a transposition
 * table, history ordering and repetitions, over an evaluation of material, advancement,
 * the centre and mobility whose weights depend on the variant's kind (flying kings or
 * not, board size). English draughts has its own, stronger engine (engine/search.h). */
#ifndef PK_VSEARCH_H
#define PK_VSEARCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "engine/search.h"
#include "rules/variant.h"

#define VPV_MAX 64

typedef struct {
	int man, king;          /* material */
	int advance;            /* a man, for each row advanced, scaled to an 8-row board */
	int centre;             /* a man on the central columns */
	int mobility;           /* each legal move more than the opponent */
	int back_rank;          /* a man still guarding its own back row */
} pk_vweights;

/* The weights the evaluation uses for v: hand-set by kind, not fitted to games. */
void vweights_for(const pk_variant *v, pk_vweights *w);
/* The static evaluation of p, from the side to move's view, in hundredths of a man. */
int veval(const pk_vpos *p, const pk_vweights *w);

typedef struct {
	int depth;
	int score;
	uint64_t nodes;
	double seconds;
	pk_vmove pv[VPV_MAX];
	int npv;
} pk_viteration;

typedef struct {
	bool has_move, forced;
	pk_vmove best;
	pk_viteration last;
} pk_vresult;

typedef struct pk_vengine pk_vengine;

pk_vengine *vengine_new(size_t hash_mb);
void vengine_free(pk_vengine *e);
void vengine_new_game(pk_vengine *e);
/* Searches root under lim (depth, nodes, movetime; 0 each: no limit, stop by *stop).
 * keys: the positions of the game before root (vpos_key), for repetitions. */
int vengine_search(pk_vengine *e, const pk_vpos *root, const uint64_t *keys, int nkeys, const pk_limits *lim,
		   volatile sig_atomic_t *stop, void (*cb)(void *ctx, const pk_viteration *it), void *ctx,
		   pk_vresult *out);

#endif
