/* Replaying a game of another variant (rules/variant.c): each main-line move, written
 * with numeric squares ("32-28", "28x17x8") or alphanumeric ones ("c3-d4", "d4:b6"),
 * matched to exactly one legal move under that variant's rules. Findings go to the
 * game, as for English draughts (pdn/replay.c), but the positions are not kept: the
 * store, the engine and the books work on English draughts only. */
#ifndef PK_VREPLAY_H
#define PK_VREPLAY_H

#include "pdn/pdn.h"
#include "rules/variant.h"

typedef struct {
	int plies;                   /* moves replayed */
	bool complete;               /* every main-line move replayed */
	int errors;                  /* error findings added */
	int first;                   /* who moved first: PK_WHITE or PK_BLACK */
} pk_vreplay;

/* Replay g under v. quiet: no findings (for trying candidate variants). 0, or -1 when
 * out of memory. */
int vreplay_game(pk_game *g, const pk_variant *v, bool quiet, pk_vreplay *out);

#endif
