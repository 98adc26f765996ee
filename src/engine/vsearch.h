/* The engine of the other variants (rules/variant.h): the search of English draughts
 * (engine/node.inc.c, deepen.inc.c: iterative deepening, aspiration windows, the
 * transposition table, the reductions and prunings its matches accepted, killers,
 * countermoves and history, threads) instanced over their boards (search_mb.c), over an
 * evaluation of material, advancement, the centre and mobility whose weights are set by
 * the variant's kind (flying kings or not, board size) unless a fitted file is built in
 * (vweights_for). The draw by kings-only moves is the variant's (rules/variant.c). */
#ifndef PK_VSEARCH_H
#define PK_VSEARCH_H

#include <signal.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "engine/search.h"
#include "rules/variant.h"
#include "rules/vbits.h"

#define VPV_MAX 64

/* The evaluation's terms; a man is 100. */
enum {
	VW_KING,                /* a king */
	VW_ADVANCE,             /* a man, for each row advanced, scaled to an 8-row board */
	VW_CENTRE,              /* a man on the central columns */
	VW_MOBILITY,            /* each legal move more than the opponent */
	VW_BACK_RANK,           /* a man still guarding its own back row */
	VW_ADVANCE_LATE,        /* the advance again, scaled by the share of pieces gone */
	VW_BALANCE,             /* men spread evenly over the two wings: less the
				 * difference between the halves' counts */
	VW_RUNAWAY,             /* a man no enemy man can meet on its way to the crowning
				 * row, while the enemy has no king */
	VW_EDGE,                /* a man on a side column */
	VW_OUTPOST,             /* a man on the first row of the enemy's half, off the sides,
				 * backed by a man of its own diagonally behind */
	VW_KING_DIAG,           /* a king on the long diagonal */
	VW_TRADE,               /* each piece ahead, scaled by the share of pieces gone */
	VW_BACKED,              /* a man off its back row with a man of its own diagonally
				 * behind it */
	VW_SAFE,                /* each plain move of a man after which the other side has no
				 * capture, more than the opponent has (boards with bitboards) */
	VW_DRAWISH,             /* a switch (1: on), not a weight: the side ahead's score cut
				 * where its material seldom wins against a king and more (a
				 * lone king is the FMJD endings' of the search), to an eighth
				 * with three pieces or fewer, to a half with as many kings as
				 * the other side and men at most one apart */
	VW_KING_FIRST,          /* a side's first king, over the king's value */
	VW_NUM
};
extern const char *const vweight_names[VW_NUM];

typedef struct {
	int w[VW_NUM];
	bool tuned;             /* fitted to the variant's games (pdnkit tune --variant) */
	const struct pk_patterns *pat;   /* learned patterns added (engine/vpattern.h; 10x10
				     * boards), NULL: none */
	const struct pk_net *net;       /* a learned network added after them (engine/net.h, 200
					 * inputs; 10x10 boards), NULL: none */
} pk_vweights;

/* The weights the evaluation uses for v: those fitted to its games where book/weights-*.txt
 * has a file for it (none at present: fits to the collections at hand did not play
 * better), else hand-set by kind (flying kings or not); and its learned patterns where
 * book/vpatterns-*.txt has them (vpatterns_builtin). */
void vweights_for(const pk_variant *v, pk_vweights *w);
/* The hand-set ones, by kind: where tuning starts. */
void vweights_hand_set(const pk_variant *v, pk_vweights *w);
/* Weights as text (book/weights-*.txt, pdnkit tune --variant -o): "name value" lines,
 * the line "gametype N" naming the variant; names not given keep their value in w.
 * 0, or -1 with the line and the reason in err. */
int vweights_parse(const char *text, pk_vweights *w, int *gametype, char *err, size_t errsize);
/* The static evaluation of p, from the side to move's view, in hundredths of a man:
 * 100 * men + the sum of w[k] * f[k] over vfeatures(). */
int veval(const pk_vpos *p, const pk_vweights *w);
/* The same with the mobility (the side to move's legal moves less the other side's)
 * already counted. */
int veval_mobility(const pk_vpos *p, const pk_vweights *w, int mobility);
/* The same from p's bitboards too (rules/vbits.h; NULL: as veval_mobility): the same
 * value, counted faster. */
int veval_bits(const pk_vpos *p, const pk_vbits *bits, const pk_vweights *w, int mobility);
/* The same with the network's value given (a search keeps its first layer up to date),
 * or VEVAL_NO_NET: computed here. */
#define VEVAL_NO_NET INT_MIN
int veval_bits_net(const pk_vpos *p, const pk_vbits *bits, const pk_vweights *w, int mobility, int net);
/* The terms of p from the side to move's view: the material in men and what each
 * weight multiplies (the advance already scaled to an 8-row board). */
void vfeatures(const pk_vpos *p, int *men, double f[VW_NUM]);
/* The network inputs that are 1 of a 10x10 position (engine/net.h's net_vinputs); their
 * number. */
int vnet_inputs(const pk_vpos *p, int in[50]);

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
/* Search with w instead of vweights_for() of the position's variant (NULL: back to those). */
void vengine_set_weights(pk_vengine *e, const pk_vweights *w);
void vengine_free(pk_vengine *e);
void vengine_new_game(pk_vengine *e);
/* The search's features (engine/search.h; the defaults: features_all, over which each
 * search puts its variant's own where the features leave them: features_for_variant)
 * and threads. */
void vengine_set_features(pk_vengine *e, const pk_features *f);
int vengine_set_threads(pk_vengine *e, int n);
/* The features a search of v's positions runs with (the set ones, v's defaults put over). */
void vengine_features(const pk_vengine *e, const pk_variant *v, pk_features *f);
/* The endgame databases this engine's searches probe (egdb/vegdb.h): those of the variant
 * in dir (NULL: none); without this call, the process's default (vegdb_set_dir). 0, or
 * -1 when out of memory. */
int vengine_set_tables_dir(pk_vengine *e, const char *dir);
/* Searches root under lim (depth, nodes, movetime; 0 each: no limit, stop by *stop).
 * h (may be NULL): the positions of the game before root (vpos_key), for repetitions,
 * and the kings' plain moves in a row before root (h->reversible), for the variant's
 * count of them (rules/vdraw.c). */
int vengine_search(pk_vengine *e, const pk_vpos *root, const pk_history *h, const pk_limits *lim,
		   volatile sig_atomic_t *stop, void (*cb)(void *ctx, const pk_viteration *it), void *ctx,
		   pk_vresult *out);

/* Leave the moves m[0..n-1] out of the root of the next vengine_search (only): the
 * score of the moves left, e.g. of the move played when every other is named. */
void vengine_exclude(pk_vengine *e, const pk_vmove *m, int n);

#endif
