/* Fitting the evaluation weights to game results: logistic regression of the result on
 * the evaluation's features over the quiet positions of a collection, every tenth game
 * held out to measure the fit (pdnkit tune). */
#ifndef PK_TUNE_H
#define PK_TUNE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "engine/eval.h"
#include "engine/vsearch.h"
#include "pdn/replay.h"
#include "rules/variant.h"

#define TUNE_MAX_W ((int)W_NUM > (int)VW_NUM ? (int)W_NUM : (int)VW_NUM)   /* the more of English's and the variants' */

typedef struct pk_tune_data pk_tune_data;

/* A collection for the weights of v's evaluation: English draughts' (engine/eval.h) for
 * NULL or GameType 21, else the variant engine's (engine/vsearch.h). */
pk_tune_data *tune_data_new(const pk_variant *v);
void tune_data_free(pk_tune_data *d);
/* The quiet positions of a replayed, complete game with a decisive or drawn result
 * (after its first 8 plies); games of another variant than the collection's are
 * skipped. 0, or -1 when out of memory. */
int tune_add_game(pk_tune_data *d, const pk_replay *rp);

/* Terms fitted to results; the endgame technique terms keep their values. */
bool tune_is_fitted(int k);

typedef struct {
	long epochs;                    /* passes of gradient descent */
	int folds;                      /* > 1: cross-validate over that many folds of games */
	double ridge;                   /* the penalty on moving from the start; < 0: choose
					 * it by cross-validation (needs folds) */
	const volatile sig_atomic_t *stop;   /* when set: the fit ends after the epoch under way */
} pk_tune_opts;

#define TUNE_MAX_RIDGES 8

typedef struct {
	size_t train, heldout;          /* positions */
	long games;
	double K;                       /* scale of the sigmoid, fitted to the start weights */
	double before_train, before_held, after_train, after_held;   /* mean log loss */
	double ridge;                   /* the penalty used */
	struct {
		double ridge, before, after;    /* mean held-out loss over the folds */
	} cv[TUNE_MAX_RIDGES];
	int ncv;
	int nw;                         /* weights */
	const char *const *names;
	bool kept[TUNE_MAX_W];          /* not fitted (English: the endgame technique terms) */
	int start[TUNE_MAX_W], fitted[TUNE_MAX_W];
	long epochs_done;               /* of the final fit: fewer than asked after a stop */
	bool cv_cut;                    /* the cross-validation was cut short by a stop */
} pk_tune_result;

/* Adam over the training part (all games but every tenth) from the engine's weights;
 * with folds, the cross-validated losses first, each fold of games held out in turn
 * (and the ridge chosen by them when asked). progress is called every 50 epochs of the
 * final fit (may be NULL). 0, or -1 when there are fewer than 1,000 positions to fit. */
int tune_fit(const pk_tune_data *d, const pk_tune_opts *o, void (*progress)(void *ctx, long epoch, double loss),
	     void *ctx, pk_tune_result *out);

#endif
