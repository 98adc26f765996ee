/* perft: the number of leaf nodes of the legal move tree, the proof of the generator. */
#ifndef PK_PERFT_H
#define PK_PERFT_H

#include <stdbool.h>
#include <stdint.h>
#include "rules/gen.h"

/* Leaves at depth; unique merges moves of identical effect (see gen_moves_unique).
 * The last ply is counted in bulk without making the moves. */
uint64_t perft(const pk_pos *p, int depth, bool unique);

/* As perft, with the count under each root move of the (unique or full) list placed in
 * counts[i] for roots->m[i]. threads > 1 shares the work among that many threads.
 * Returns the total, or UINT64_MAX when the threads could not be started. */
uint64_t perft_divide(const pk_pos *p, int depth, bool unique, int threads,
		      pk_movelist *roots, uint64_t *counts);

#endif
