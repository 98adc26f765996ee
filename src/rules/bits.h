/* Bitboard primitives for the 32 playable squares: bit b is standard square b+1.
 * Row r (0 = Black's back row, squares 1-4) holds bits 4r..4r+3; even rows are
 * shifted right on the drawn board, which is why each diagonal step has two shifts. */
#ifndef PK_BITS_H
#define PK_BITS_H

#include <stdint.h>

typedef uint32_t bb_t;

#define BB_ALL       0xFFFFFFFFu
#define BB_ROW(r)    (0xFu << (4 * (r)))
#define BB_BLACK_KINGROW BB_ROW(7)   /* squares 29-32: a Black man is crowned here */
#define BB_WHITE_KINGROW BB_ROW(0)   /* squares 1-4 */

static inline int bb_count(bb_t x) { return __builtin_popcount(x); }
static inline int bb_first(bb_t x) { return __builtin_ctz(x); }
static inline bb_t bb_clear_first(bb_t x) { return x & (x - 1); }
static inline bb_t bb_sq(int b) { return (bb_t)1 << b; }

/* The board turned half a circle: square n becomes square 33 - n (bit b, bit 31 - b). */
static inline bb_t bb_reverse32(bb_t x)
{
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
	return __builtin_bswap32(x);
}

/* One diagonal step of every piece in x, in each geometric direction.
 * "Down" means towards square 32, the direction Black's men move. */
static inline bb_t bb_down_left(bb_t x)
{
	return ((x & 0x0F0F0F0Fu) << 4) | ((x & 0x00E0E0E0u) << 3);
}
static inline bb_t bb_down_right(bb_t x)
{
	return ((x & 0x07070707u) << 5) | ((x & 0x00F0F0F0u) << 4);
}
static inline bb_t bb_up_left(bb_t x)
{
	return ((x & 0x0F0F0F00u) >> 4) | ((x & 0xE0E0E0E0u) >> 5);
}
static inline bb_t bb_up_right(bb_t x)
{
	return ((x & 0x07070700u) >> 3) | ((x & 0xF0F0F0F0u) >> 4);
}

#endif
