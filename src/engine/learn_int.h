/* What the parts of the trainer share (learn.c fits the patterns, learn_net.c the
 * network, learn_labels.c keeps the search labels in their file): the collection of
 * positions and its samples. Not for use outside engine/. */
#ifndef PK_LEARN_INT_H
#define PK_LEARN_INT_H

#include <math.h>
#include "engine/learn.h"
#include "engine/vsearch.h"

#define MAX_THREADS 64

typedef struct {
	uint16_t idx[PAT_TABLES];
	int16_t base;                   /* the base evaluation, mover's view, hundredths */
	int16_t score;                  /* a search's score (mover's view), or NO_SCORE */
	uint8_t phase, t;               /* between phase and phase + 1, t of PAT_SEG past it */
	uint8_t y;                      /* 0 loss, 1 draw, 2 win for the side to move */
	uint8_t held;
	uint8_t tried;                  /* searched by learn_label (or read from a labels file),
					 * a score or none (a forced position) */
	uint8_t stm;                    /* the side to move (the targets of --td turn with it) */
	uint8_t opens;                  /* the first of its game's samples */
} sample;

#define NO_SCORE INT16_MIN

struct pk_learn_data {
	pk_weights base;
	sample *v;
	pk_pos *pos;                    /* each sample's position, kept for learn_label */
	size_t n, cap;
	long games;
	size_t labelled;
	size_t exact;                   /* positions of learn_add_position */
	int max_pieces;                 /* > 0: only positions of at most this many pieces */
	uint32_t (*kidx)[PAT_WINDOWS_BASIC]; /* with max_pieces: each sample's windows with kings
					 * (pattern_king_indices), for the endgame table */
	const pk_variant *variant;      /* a 10x10 variant's collection (vpattern.h): its windows */
	pk_vweights vbase;              /* the evaluation its patterns add to */
	pk_vpos *vpos;                  /* with variant: each sample's position, for learn_label */
	bool men_only;                  /* with variant: the windows see men only (vpattern.h) */
	bool tempo;                     /* with variant: phases by the men's rows to go */
	bool calm;                      /* with variant: positions where the other side has a
					 * capture left out too */
	/* a labels file's entries that label none of these positions: written back by
	 * learn_labels_save, so that a run on fewer games never drops another's labels */
	uint64_t *kept_keys;
	int16_t *kept_scores;
	size_t nkept;
};

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* The log loss of p against the target t (0 .. 1). */
static inline double logloss(double p, double t)
{
	const double eps = 1e-12;
	return -(t * log(p + eps) + (1 - t) * log(1 - p + eps));
}

#endif
