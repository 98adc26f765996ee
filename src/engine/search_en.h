/* The English instance of the search's templates (engine/node.inc.c, deepen.inc.c):
 * the 32-square bitboards, the endgame databases. Included by search.c and deepen.c. */
#ifndef PK_SEARCH_EN_H
#define PK_SEARCH_EN_H

#include "engine/search_int.h"

#define N_POS pk_pos
#define N_MOVE pk_move
#define N_MOVELIST pk_movelist
#define N_WORKER worker
#define N_ENGINE pk_engine
#define N_NAME(x) x
#define N_GEN(p, ml) gen_moves(p, ml)
#define N_MAKE(p, m, c) pos_make(p, m, c)
#define N_KEY(p) ((p)->key)
#define N_HAS_CAPTURE(p) gen_has_capture(p)
#define N_COUNT(p) gen_count(p)
#define N_IS_CAPTURE(m) move_is_capture(m)
#define N_REVERSIBLE(p, m) move_is_reversible(p, m)
#define N_SAME_EFFECT(a, b) move_same_effect(a, b)
#define N_EQUAL(a, b) move_equal(a, b)
#define N_NO_MOVE(m) (!(m)->nland)
#define N_FROM(m) ((m)->from)
#define N_TO(m) move_to(m)
#define N_CAPTURE_VALUE(p, m) (16 * bb_count((m)->captured) + bb_count((m)->captured & (p)->kings))
#define N_CROWNING(p, m) (bb_sq(move_to(m)) & ((p)->stm == PK_BLACK ? 0xFF000000u : 0x000000FFu))
#define N_PIECES(p) bb_count((p)->side[0] | (p)->side[1])
#define N_HAS_KINGS(p) ((p)->kings != 0)
#define N_START_PIECES(p) ((void)(p), 24)
#define N_EVAL(p, w) eval(p, w)
#define N_DRAW_PLIES(w) DRAW_PLIES
#define N_MAX_MOVES PK_MAX_MOVES
#define N_FLIP(p) ((p)->stm = !(p)->stm)
#define N_EGDB 1
#define N_ITERATION pk_iteration
#define N_ITERATION_CB pk_iteration_cb
#define N_RESULT pk_result
#define N_PV_MAX MAX_PLY
#define N_SQ 32
#define N_SET_EXCLUDE(e, lim) ((e)->exclude = (lim)->exclude, (e)->nexclude = (lim)->nexclude)

#endif
