/* Bitboards for the variants on 8x8 and 10x10 boards with diagonal moves (International,
 * Russian, Brazilian, Italian, Spanish, Pool, ...): whether the side to move must capture
 * and how many quiet moves it has, in a few word operations instead of a walk over the
 * board. The search keeps them beside its mailbox position (engine/search_mb.c). For
 * International's rules (and Brazilian's) they also generate the whole list of moves
 * (vbits_gen): rules/variant.c's list, in its order, checked move for move in
 * tests/test_variant.c; every other variant's list stays rules/variant.c's.
 *
 * A playing square at row r, column c has bit (r * (cols + 1) + c) / 2: every step down
 * the board to the left adds cols / 2 and to the right cols / 2 + 1, whatever the row,
 * and a step off either edge lands on a bit that is no square (the padding of the
 * (cols + 1)-wide rows). 36 bits for 8x8, 55 for 10x10. */
#ifndef PK_VBITS_H
#define PK_VBITS_H

#include <stdbool.h>
#include <stdint.h>
#include "rules/variant.h"

typedef struct {
	uint64_t men[2], kings[2];   /* by colour: PK_WHITE, PK_BLACK */
} pk_vbits;

/* Whether v's rules are those vbits answers for: a board of 8x8 or 10x10 with diagonal
 * moves and captures, captured pieces taken off at the end of the move. */
bool vbits_supported(const pk_variant *v);
void vbits_of(const pk_vpos *p, pk_vbits *b);
/* b after m was made from p (p before the move; `after` the position it made). */
void vbits_make(const pk_vbits *b, const pk_vpos *p, const pk_vmove *m, const pk_vpos *after, pk_vbits *out);
/* vhas_capture(p), and vcount(p) when the side has no capture, of the position whose
 * bitboards b are. */
bool vbits_has_capture(const pk_variant *v, const pk_vbits *b, int stm);
/* The pieces of stm that may start a capture, as squares (bit s - 1 for square s): every
 * man with a first jump, and every king. */
uint64_t vbits_capturers(const pk_variant *v, const pk_vbits *b, int stm);
/* Bits of v's board as squares (bit s - 1 for square s). */
uint64_t vbits_squares(const pk_variant *v, uint64_t bits);
/* The bit of square sq (1..n) of v's board (vbits_supported(v)). */
int vbits_bit(const pk_variant *v, int sq);
/* The square (1..n) of each of the 64 bits, 0 for a bit that is none. */
const uint8_t *vbits_square_of(const pk_variant *v);
int vbits_quiet_count(const pk_variant *v, const pk_vbits *b, int stm);
/* The plain moves of stm's men after which the other side has no capture (of the man
 * moved or of any other piece): the men's moves that give nothing away. */
int vbits_safe_men_moves(const pk_variant *v, const pk_vbits *b, int stm);

/* The whole list of legal moves on the bitboards, for the variants whose rules
 * vbits_gen_supported accepts (International's: flying kings, men capturing backwards,
 * the most pieces taken, a man crowned only where its move ends): the moves vgen lists,
 * in its order. */
bool vbits_gen_supported(const pk_variant *v);
int vbits_gen(const pk_variant *v, const pk_vbits *b, int stm, pk_vmovelist *ml);
/* The same when whether stm must capture is known (vbits_has_capture's answer). */
int vbits_gen_known(const pk_variant *v, const pk_vbits *b, int stm, bool capture, pk_vmovelist *ml);
/* How many moves vbits_gen lists (vcount). */
int vbits_count(const pk_variant *v, const pk_vbits *b, int stm);
/* b after stm's move m (a move of vbits_gen's list). */
void vbits_make_move(const pk_variant *v, const pk_vbits *b, int stm, const pk_vmove *m, pk_vbits *out);
uint64_t vbits_perft(const pk_variant *v, const pk_vbits *b, int stm, int depth);

#endif
