/* Positions of English draughts as three square sets, for the tests' endgame solvers
 * (test_egdb.c, egdb_apart.c): to and from the arrays of naive.c and pdnkit's positions. */
#ifndef PK_NAIVE_KEY_H
#define PK_NAIVE_KEY_H

#include <stdint.h>
#include "naive.h"
#include "rules/pos.h"

typedef struct {
	uint32_t black, white, kings;  /* bit sq-1 of each piece's square */
	uint32_t stm;                  /* 1: Black to move */
} nk_key;

nk_key nk_of(const nv_pos *p);
void nk_to_nv(const nk_key *k, nv_pos *p);
pk_pos nk_to_pos(const nk_key *k);

#endif
