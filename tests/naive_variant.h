/* The second, independent move generator for the variants (tests only). */
#ifndef PK_NAIVE_VARIANT_H
#define PK_NAIVE_VARIANT_H

#include <stdint.h>
#include "rules/variant.h"

uint64_t naive_variant_perft(const pk_vpos *p, int depth);

#endif
