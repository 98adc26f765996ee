/* Fitting the evaluation weights to game results: logistic regression of the result on
 * the evaluation's features over the quiet positions of a collection, every tenth game
 * held out to measure the fit (pdnkit tune). */
#ifndef PK_TUNE_H
#define PK_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include "engine/eval.h"
#include "pdn/replay.h"

typedef struct pk_tune_data pk_tune_data;

pk_tune_data *tune_data_new(void);
void tune_data_free(pk_tune_data *d);
/* The quiet positions of a replayed, complete game with a decisive or drawn result
 * (after its first 8 plies). 0, or -1 when out of memory. */
int tune_add_game(pk_tune_data *d, const pk_replay *rp);

/* Terms fitted to results; the endgame technique terms keep their values. */
bool tune_is_fitted(int k);

typedef struct {
	size_t train, heldout;          /* positions */
	long games;
	double K;                       /* scale of the sigmoid, fitted to the start weights */
	double before_train, before_held, after_train, after_held;   /* mean log loss */
	int start[W_NUM], fitted[W_NUM];
} pk_tune_result;

/* Adam over the training part for `epochs` passes from the hand-set weights; progress
 * is called every 50 epochs (may be NULL). 0, or -1 when there are fewer than 1,000
 * positions to fit. */
int tune_fit(const pk_tune_data *d, long epochs, void (*progress)(void *ctx, long epoch, double loss),
	     void *ctx, pk_tune_result *out);

#endif
