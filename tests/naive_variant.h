/* The second, independent move generator for the variants (tests only). */
#ifndef PK_NAIVE_VARIANT_H
#define PK_NAIVE_VARIANT_H

#include <stdint.h>
#include "rules/variant.h"

uint64_t naive_variant_perft(const pk_vpos *p, int depth);
/* The side to move's exact value within depth plies by plain minimax (apart from the
 * endgame databases' builder): 1000 + d a win in d plies, -(1000 + d) a loss in d, 0
 * neither within depth. */
int naive_variant_solve(const pk_vpos *p, int depth);
/* The positions after each legal move of p, by this generator: how many (at most max). */
int naive_variant_children(const pk_vpos *p, pk_vpos *out, int max);

#endif
