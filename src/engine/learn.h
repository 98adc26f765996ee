/* Learning the pattern evaluation (engine/pattern.h) from games: every quiet position
 * of a finished game (no capture for the side to move) is a sample labelled with the
 * game's result for the side to move, and optionally with a search's score
 * (learn_label); the patterns are fitted as what the hand-set evaluation misses, by
 * logistic regression (damped Newton steps on each weight over the whole training
 * part, on N threads), the games of a tenth of the openings held out (by the position
 * after three plies) and the weights of the epoch with the lowest held-out loss kept. Deterministic: the same games in the same order and the same
 * number of threads give the same weights (the threads' sums are added in one order). */
#ifndef PK_LEARN_H
#define PK_LEARN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "egdb/egdb.h"
#include "engine/eval.h"
#include "engine/net.h"
#include "engine/pattern.h"
#include "engine/vsearch.h"
#include "pdn/replay.h"

typedef struct pk_learn_data pk_learn_data;

/* An empty collection; base is the evaluation the patterns add to (its own patterns
 * are left out). NULL when out of memory. */
pk_learn_data *learn_data_new(const pk_weights *base);
/* An empty collection for an endgame table (pattern.h): base is the whole evaluation
 * the table adds to (its patterns included; their own endgame table should be left
 * out), and only the positions of at most max_pieces pieces are kept. */
pk_learn_data *learn_data_new_endgame(const pk_weights *base, int max_pieces);
/* An empty collection of a 10x10 variant's games (engine/vpattern.h): its patterns add
 * to base (the variant's hand-set terms; patterns in it are left out) and base_pat (NULL:
 * none; patterns of the same windows, whose weights the fitted ones are then added to).
 * NULL when out of memory or when v has no patterns. */
pk_learn_data *learn_data_new_variant(const pk_variant *v, const pk_vweights *base, const pk_patterns *base_pat);
/* The quiet positions of a replayed, complete game of that variant with a result, from
 * ply skip on (held out by its opening as English games are). 0 (another variant's game,
 * or one without a result, is skipped), -1 when out of memory. Search labels
 * (learn_label) are English draughts'. */
int learn_add_vgame(pk_learn_data *d, const pk_replay *rp, int skip);
/* With calm, learn_add_vgame also leaves out the positions where the side not to move
 * has a capture (a threat the mover must meet: its outcome is tactics that the windows
 * cannot see, and a search's label of it is mostly that outcome). */
void learn_set_calm(pk_learn_data *d, bool calm);
/* With men_only, the positions learn_add_vgame adds index windows of men alone (a king's
 * square empty), and the patterns fitted from them say so (pk_patterns.men_only). */
void learn_set_men_only(pk_learn_data *d, bool men_only);
/* With tempo, their phases are placed by the men's rows to go (pk_patterns.tempo). */
void learn_set_tempo(pk_learn_data *d, bool tempo);
void learn_data_free(pk_learn_data *d);
/* The quiet positions of a replayed, complete game of English draughts with a result,
 * from ply skip on. 0 (a game without a result or not complete is skipped), -1 when out
 * of memory. */
int learn_add_game(pk_learn_data *d, const pk_replay *rp, int skip);
/* A position whose value is known (from the endgame databases: -1 loss, 0 draw, 1 win
 * for the side to move), for training only (never held out), its target that value
 * alone. 0, or -1 when out of memory. */
int learn_add_position(pk_learn_data *d, const pk_pos *p, int value);
size_t learn_exact(const pk_learn_data *d);
/* Labels the positions (every one whose number is a multiple of every) with the score
 * of a search to depth by the engine with weights w (its patterns included), on
 * threads threads, probing the endgame databases db (NULL: none), which are exact for
 * the positions they hold; a position of at most end_pieces pieces is searched to
 * end_depth instead (end_pieces 0: none is). A forced position keeps none. progress (may
 * be NULL) now and then. 0, or -1 when out of memory; stops early when *stop is set. */
int learn_label(pk_learn_data *d, const pk_weights *w, pk_egdb *db, int depth, int end_pieces, int end_depth, int every, int threads,
		const volatile sig_atomic_t *stop, void (*progress)(void *ctx, size_t done, size_t total), void *ctx);
size_t learn_labelled(const pk_learn_data *d);
/* The positions that learn_label with this stride would still search. */
size_t learn_unsearched(const pk_learn_data *d, int every);
/* The positions searched (or read from a labels file), whatever their stride: those a
 * labels file written now keeps. */
size_t learn_searched(const pk_learn_data *d);
/* The labels to a file and back, so that a later run skips the searches already made:
 * the file holds each searched position's key and score, so the positions of these games
 * that it holds take its labels (however many games were added since) and learn_label
 * searches only the others. load gives 0 with *matched the positions labelled from it (3: the same, from a
 * file of format 2, to be saved again in format 3),
 * 1 when it is of other settings (the caller's key of the depths, bits 8-15 (the stride)
 * aside; nothing changed) or of an older format, -1 when it is no labels file, or is
 * damaged or cut short (a hash of its contents ends it), -2 when out of memory. save: 0 or
 * -1. */
int learn_labels_save(const pk_learn_data *d, uint64_t settings, FILE *f);
int learn_labels_load(pk_learn_data *d, uint64_t settings, size_t *matched, FILE *f);
/* The ordered form (format 4): a score for each of exactly these positions in their order
 * (a position not searched yet marked so), no keys: two bytes a position, read back only
 * with the same games; load gives 4 for it (0's meaning), or 1 when the file is of other
 * games or settings. */
int learn_labels_save_ordered(const pk_learn_data *d, uint64_t settings, FILE *f);
/* Positions and games so far. */
size_t learn_positions(const pk_learn_data *d);
long learn_games(const pk_learn_data *d);

typedef struct {
	long epochs;                    /* full passes (default 300) */
	double rate;                    /* the share of each weight's Newton step taken (default 0.3) */
	double l2;                      /* the ridge, as that many positions seen at 0 (default 20) */
	int min_count;                  /* a pattern seen in fewer training positions keeps 0 (default 3) */
	int threads;                    /* 1..64 */
	int windows;                    /* PAT_WINDOWS_BASIC (the default when 0) or PAT_WINDOWS */
	int material;                   /* 1: fit the material table too */
	int tie;                        /* a 10x10 variant's windows fitted as one table each
					 * (the same weights in every window of a group): 0 none,
					 * 1 each row of four windows, 2 all sixteen; fewer
					 * weights for fewer games; 3 colours: a window's
					 * weight of an index less its partner's (the window
					 * half a circle round) of the index turned, sides
					 * swapped: the mover's score the other side's with
					 * the move given to it, negated */
	double lambda;                  /* where a position has a search score (learn_label), the
					 * target is lambda * result + (1 - lambda) * sigmoid(score);
					 * 1: the result alone. Losses printed are against results. */
	bool labelled_only;             /* the training part's positions without a search score
					 * left out of the fit (the held-out loss still over all) */
	double td;                      /* > 0: temporal differences instead of lambda: a
					 * labelled position's target is (1 - td) sigmoid(score)
					 * plus td times the target of its game's next position
					 * (turned to its side), the result after the last one;
					 * a position without a score passes the next one's on */
	bool keep_last;                 /* keep the last epoch's weights, not those of the lowest
					 * held-out loss */
	bool end_phase;                 /* only the last phase's weights fitted (those of 2
					 * pieces), the others left at 0 */
	const volatile sig_atomic_t *stop;   /* when set: ends after the epoch under way */
} pk_learn_opts;

typedef struct {
	size_t train, heldout;          /* positions */
	double K;                       /* the sigmoid's scale fitted to the base evaluation */
	double base_train, base_held;   /* mean log loss of the base evaluation */
	double best_train, best_held;   /* of the weights kept */
	long best_epoch, epochs_done;
	double last_train, last_held;   /* of the last epoch */
	long used;                      /* patterns that may move (seen at least min_count times) */
} pk_learn_result;

/* Fits out (zeroed first). progress (may be NULL) after every epoch: the epoch and its
 * training and held-out losses. 0, or -1 when out of memory. */
int learn_fit(const pk_learn_data *d, const pk_learn_opts *o, void (*progress)(void *ctx, long epoch, double train,
										double held),
	      void *ctx, pk_patterns *out, pk_learn_result *r);

typedef struct {
	long epochs;                    /* passes over the training positions (default 30) */
	double rate;                    /* Adam's step in the first epoch (default 0.001) */
	double decay;                   /* the step's factor from one epoch to the next (default 0.9) */
	int batch;                      /* positions a step (default 1024) */
	int threads;                    /* 1..64 */
	double lambda;                  /* as in pk_learn_opts */
	bool labelled_only;             /* as in pk_learn_opts */
	uint64_t seed;                  /* the first weights and the order of the positions (0: 1) */
	bool keep_last;                 /* keep the last epoch's weights, not the best held-out */
	const volatile sig_atomic_t *stop;
} pk_net_opts;

/* Fits a network (engine/net.h) that adds to base (its hand-set terms and patterns; its
 * network left out): minibatch steps (Adam) in a seeded order, the epoch with the lowest
 * held-out loss kept. The losses of r: base, then base + the integer network out, each
 * against the fit's own targets (with search labels, the scores and results mixed by
 * o->lambda; else the results); used is the network's number of weights (English or
 * 10x10 inputs). Deterministic for a seed, whatever the threads. 0, or -1 when out of
 * memory. */
int learn_fit_net(const pk_learn_data *d, const pk_weights *base, const pk_net_opts *o,
		  void (*progress)(void *ctx, long epoch, double train, double held), void *ctx, pk_net *out,
		  pk_learn_result *r);

#endif
