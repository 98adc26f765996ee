/* A position of English draughts: who is where, who moves, and its Zobrist key.
 * Positions are small values; make a move by copying, never by undoing. */
#ifndef PK_POS_H
#define PK_POS_H

#include <stdbool.h>
#include <stdint.h>
#include "rules/bits.h"

enum { PK_BLACK = 0, PK_WHITE = 1 };

typedef struct {
	bb_t side[2];    /* pieces of each colour */
	bb_t kings;      /* which of them are kings */
	int stm;         /* side to move: PK_BLACK or PK_WHITE */
	uint64_t key;    /* Zobrist key, kept up to date by pos_make */
} pk_pos;

struct pk_move;

void pos_start(pk_pos *p);                 /* the initial position, Black to move */
void pos_clear(pk_pos *p, int stm);        /* an empty board */
void pos_put(pk_pos *p, int sq, int colour, bool king);  /* sq is 1..32 */
int pos_piece_at(const pk_pos *p, int sq, int *colour, bool *king); /* 0 = empty */
void pos_make(const pk_pos *p, const struct pk_move *m, pk_pos *out);
uint64_t pos_compute_key(const pk_pos *p);
bool pos_equal(const pk_pos *a, const pk_pos *b);
/* What makes a position impossible in a game: a man on its own crowning row, more
 * than 12 pieces of a side, or no pieces at all. NULL when it is possible, else the
 * reason (a static text). */
const char *pos_impossible(const pk_pos *p);

static inline bb_t pos_empty(const pk_pos *p) { return ~(p->side[0] | p->side[1]); }

#endif
