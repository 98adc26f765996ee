/* Static evaluation in hundredths of a man, from the side to move's view. The weights
 * are data (pk_weights) so that `pdnkit tune` can fit them to game results. */
#ifndef PK_EVAL_H
#define PK_EVAL_H

#include "pos.h"

enum {
	W_KING,          /* value of a king (a man is 100) */
	W_BACK_RANK,     /* each man still guarding its own back row */
	W_BRIDGE,        /* the classic guard: both squares 1 and 3 (Black) / 30 and 32 (White) */
	W_CENTRE_MAN,    /* a man on one of the eight centre squares */
	W_CENTRE_KING,   /* a king there */
	W_EDGE_MAN,      /* a man on a side square */
	W_MOBILITY,      /* each plain move available */
	W_TEMPO,         /* each row a man has advanced, scaled by how few pieces are left */
	W_RUNAWAY,       /* a man with a free path to its crowning row */
	W_DOG_HOLE,      /* a man stuck in the dog hole (5 for Black, 28 for White) */
	W_TRADE_DOWN,    /* when ahead, per piece off the board */
	W_KING_CORNER,   /* the lone king of the weaker side in a double corner */
	W_DRIVE,         /* the stronger side's kings close to the weaker side's lone king */
	W_NUM
};

typedef struct {
	int w[W_NUM];
} pk_weights;

extern const pk_weights eval_default_weights;
extern const char *const eval_weight_names[W_NUM];

int eval(const pk_pos *p, const pk_weights *w);

/* Feature counts from Black's view (Black's minus White's), weight by weight, and the
 * material part separately: eval = material + sum(features[i] * w[i]) (side to move
 * sign aside). For tuning. */
void eval_features(const pk_pos *p, int *material_men, int features[W_NUM]);

#endif
