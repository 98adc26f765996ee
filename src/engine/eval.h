/* Static evaluation in hundredths of a man, from the side to move's view. The weights
 * are data (pk_weights) so that `pdnkit tune` can fit them to game results. */
#ifndef PK_EVAL_H
#define PK_EVAL_H

#include <stddef.h>
#include "rules/pos.h"

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

struct pk_patterns;
struct pk_net;
typedef struct {
	int w[W_NUM];
	const struct pk_patterns *pat;  /* learned patterns added to the sum (engine/pattern.h); may be NULL */
	const struct pk_net *net;       /* a learned network added to the sum (engine/net.h); may be NULL */
	int draw_scale;                 /* endings of as many pieces on each side, both with kings:
					 * the evaluation times draw_scale / 100 (1..99; 0 or 100:
					 * unchanged); "draw_scale N" in a weights file */
} pk_weights;

/* The hand-set weights ("untuned"), and the weights fitted by `pdnkit tune` that the
 * engine uses by default: book/weights.txt, built into the program, with the built-in
 * patterns (book/patterns.txt) and network (book/net.txt) when there are any. */
extern const pk_weights eval_default_weights;
const pk_weights *eval_tuned_weights(void);
extern const char *const eval_weight_names[W_NUM];

int eval(const pk_pos *p, const pk_weights *w);

/* Weights as text, one "name value" a line, '#' comments: the form of book/weights.txt
 * and of `pdnkit tune -o`. Names not given keep their value in w. Returns 0, or -1 with
 * the line and the reason in err. */
int weights_parse(const char *text, pk_weights *w, char *err, size_t errsize);
/* The same over any list of names: w[k] for the line naming names[k]. */
int weights_parse_named(const char *text, const char *const *names, int n_names, int *w, char *err, size_t errsize);

/* Feature counts from Black's view (Black's minus White's), weight by weight, and the
 * material part separately: eval = material + sum(features[i] * w[i]) (side to move
 * sign aside). For tuning. */
void eval_features(const pk_pos *p, int *material_men, int features[W_NUM]);

#endif
