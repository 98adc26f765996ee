/* Constant tables of the board geometry and the Zobrist keys. */
#ifndef PK_TABLES_H
#define PK_TABLES_H

#include <stdint.h>

enum { DIR_UL, DIR_UR, DIR_DL, DIR_DR };

extern const int8_t tab_step[4][32];       /* neighbour bit in a direction, or -1 */
extern const int8_t tab_jump_over[4][32];  /* square jumped over, or -1 */
extern const int8_t tab_jump_to[4][32];    /* landing square of that jump, or -1 */
extern const uint64_t zob_piece[2][2][32]; /* [colour][king][bit] */
extern const uint64_t zob_white_to_move;

#endif
