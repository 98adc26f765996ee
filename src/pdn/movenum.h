/* Move numbers as PDN writes them, in one place: Black's move and White's reply share a
 * number, and a line whose first move is White's starts with "N...". */
#ifndef PK_MOVENUM_H
#define PK_MOVENUM_H

#include <stdbool.h>
#include <stddef.h>

/* The number of the move at ply index i (0-based) of a line that starts with move
 * number `first` and first_stm (PK_BLACK or PK_WHITE) to move. */
static inline int movenum_at(int first, int first_stm, int i)
{
	return first + (i + (first_stm != 0)) / 2;
}

/* The number token before a move by stm: "N." for Black, "N..." for White when
 * `first` (the first move of a line or after an interruption), else "". Returns the
 * length written. */
int movenum_token(int number, int stm, bool first, char *buf, size_t size);
/* The same for a game whose numbers another side opens (White in International
 * draughts): opens says whether the move's side opens its move number. */
int movenum_token_as(int number, bool opens, bool first, char *buf, size_t size);

/* Moves given as text separated by single spaces ("11-15 23-19"), numbered from move
 * `number` with stm to move: "N. a b N+1. c" with sep between tokens. Writes whole
 * moves only, within size bytes (NUL included); returns the length written. */
size_t movenum_line(const char *moves, int number, int stm, char sep, char *buf, size_t size);
/* The same, opens saying whether the line's first move opens its move number. */
size_t movenum_line_as(const char *moves, int number, bool opens, char sep, char *buf, size_t size);

#endif
