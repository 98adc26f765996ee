/* The CheckerBoard interface's board (int board[8][8], colours and piece codes of
 * proto/cb_api.h) and pdnkit's positions, both ways: for libpdnkit-cb.so (pdnkit as a
 * CheckerBoard engine) and for the host that loads another engine's library. */
#ifndef PK_CBBOARD_H
#define PK_CBBOARD_H

#include "proto/cb_api.h"
#include "rules/gen.h"

/* Square n of English draughts (1..32) at board[x][y]. */
void cb_sq_xy(int sq, int *x, int *y);
/* The host's board into a position; NULL, or why it cannot be one (a colour other
 * than CB_WHITE or CB_BLACK, a square's code that is no piece, an impossible position). */
const char *cb_board_to_pos(int board[8][8], int color, pk_pos *p);
void cb_pos_to_board(const pk_pos *p, int board[8][8]);
/* The code of what stands on square sq (CB_FREE when empty). */
int cb_piece_code(const pk_pos *p, int sq);
/* A move as the interface describes it to the host. */
void cb_describe(const pk_pos *before, const pk_move *m, struct CBmove *out);
/* Something written on one of the 32 light squares: true when so (a library that
 * writes outside the playing squares has played no legal move). */
bool cb_board_light_written(int board[8][8]);

#endif
