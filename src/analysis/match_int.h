/* What the referee's files share (analysis/match.c, analysis/openings.c). */
#ifndef PK_MATCH_INT_H
#define PK_MATCH_INT_H

#include "analysis/match.h"
#include "proto/dxp.h"

/* Appends s to a growing buffer; false when out of memory. */
bool match_append(char **text, size_t *len, size_t *cap, const char *s);
/* Appends a move to a game's text, "N. " before it when stm is Black (the first mover;
 * a variant's first mover passes PK_BLACK), "N... " before the second mover's after a
 * note (after_note). */
bool match_append_move(char **text, size_t *len, size_t *cap, int number, int stm, bool after_note, const char *move);
/* What a move of the record says, written as a PDN comment after it. */
typedef struct {
	bool book;          /* a book move: "{book}" */
	bool has_score;
	int score_black;    /* the score after the move, from Black's (the first mover's) view */
	int depth;          /* 0: none */
	double seconds;
} pk_move_note;
bool match_append_note(char **text, size_t *len, size_t *cap, const pk_move_note *n);
/* Why the game is drawn after a move: 50 moves each without a capture or a man moved
 * (rev such plies), or the third occurrence of key among keys (the positions before,
 * the last one the mover's); NULL when it goes on. */
const char *match_drawn(const uint64_t *keys, int nkeys, uint64_t key, int rev);
/* The game is lost by player who (of colour side) for what its engine did. */
void match_forfeit(pk_match *m, pk_match_game *g, int who, int side, pk_client_status st, const char *detail);

#endif
