/* The legal move generator of English draughts. One generator serves perft, replay,
 * search, store and book, so its order is canonical (see gen.c and pdnkit-perft(1)):
 * a move's index in the list, its ordinal, is stored on disk. Changing the order is a
 * format change and must bump GEN_ORDER_VERSION. */
#ifndef PK_GEN_H
#define PK_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include "rules/move.h"
#include "rules/pos.h"

#define GEN_ORDER_VERSION 1
#define PK_MAX_MOVES 256

typedef struct {
	int n;
	bool overflow;   /* more moves than PK_MAX_MOVES: list truncated (never seen in legal play) */
	pk_move m[PK_MAX_MOVES];
} pk_movelist;

/* All legal moves in canonical order; a king capture that reaches the same result by
 * two paths is listed once per path (the convention of OEIS A133046). Returns ml->n. */
int gen_moves(const pk_pos *p, pk_movelist *ml);
/* As gen_moves, then drops every move whose effect (from, to, captured) repeats an
 * earlier one in the list. */
int gen_moves_unique(const pk_pos *p, pk_movelist *ml);
/* Number of legal moves, without building a list: equals gen_moves(p)->n. */
static inline uint64_t gen_count(const pk_pos *p);
/* Number of moves that gen_moves_unique would return. */
uint64_t gen_count_unique(const pk_pos *p);
/* The plain move from -> to (bit indices) if it is legal in p, which must have no
 * capture: returns its ordinal in gen_moves' list and sets *nlegal to the list's
 * length; -1 when it is not a legal move. Exactly what gen_moves would say, without
 * building the list. */
int gen_plain_ordinal(const pk_pos *p, int from, int to, int *nlegal);
/* Whether the side to move must capture. */
bool gen_has_capture(const pk_pos *p);

/* Count of the capture sequences of the side to move (0 when it has none). */
uint64_t gen_count_captures(const pk_pos *p);

/* Inline because perft calls it once per node of the last ply: each diagonal step is
 * computed once and serves both the capture test and the plain-move count. */
static inline uint64_t gen_count(const pk_pos *p)
{
	int us = p->stm;
	bb_t opp = p->side[!us], empty = pos_empty(p);
	bb_t down = us == PK_BLACK ? p->side[us] : p->side[us] & p->kings;
	bb_t up = us == PK_WHITE ? p->side[us] : p->side[us] & p->kings;
	bb_t dl = bb_down_left(down), dr = bb_down_right(down);
	bb_t ul = bb_up_left(up), ur = bb_up_right(up);
	if ((bb_down_left(dl & opp) | bb_down_right(dr & opp) | bb_up_left(ul & opp) |
	     bb_up_right(ur & opp)) & empty)
		return gen_count_captures(p);
	return (uint64_t)(bb_count(dl & empty) + bb_count(dr & empty) + bb_count(ul & empty) +
			  bb_count(ur & empty));
}

/* A reversible move: no capture and no man moved (a king's plain move). The 50-move rule
 * counts these plies, and a position can only repeat across them. */
static inline bool move_is_reversible(const pk_pos *p, const pk_move *m)
{
	return !move_is_capture(m) && (p->kings >> m->from & 1);
}
/* Plies of reversible moves in a row that draw the game: 50 moves each. */
#define DRAW_PLIES 100

#endif
