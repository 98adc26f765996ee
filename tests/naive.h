/* An independent, deliberately simple move generator on an 8x8 array, used only by
 * the tests to check the bitboard generator. It shares no code with src/. */
#ifndef PK_NAIVE_H
#define PK_NAIVE_H

#include <stdbool.h>
#include <stdint.h>

enum { NV_EMPTY, NV_BM, NV_WM, NV_BK, NV_WK };

typedef struct {
	int board[8][8];   /* [row][col], row 0 holds squares 1-4 */
	int black_to_move;
} nv_pos;

typedef struct {
	int path[16];      /* squares 1..32, path[0] = from */
	int len;           /* number of squares in path */
	uint32_t captured; /* bit (sq-1) of each captured square */
} nv_move;

void nv_from_squares(nv_pos *p, const int *kind_of_square /* [33] */, bool black_to_move);
int nv_moves(const nv_pos *p, nv_move *out, int max);      /* all paths */
void nv_make(const nv_pos *p, const nv_move *m, nv_pos *out);
uint64_t nv_perft(const nv_pos *p, int depth, bool unique);

#endif
