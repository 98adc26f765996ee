/* A position of any variant and a move of it: English draughts' bitboard position
 * (rules/pos.h, v NULL) or another variant's (rules/variant.h). The one dispatch between
 * the two families for the code that handles a position a ply (analyze, annotate, the
 * match referee, the web): the searches stay on their own position types. */
#ifndef PK_GPOS_H
#define PK_GPOS_H

#include <stdbool.h>
#include <stddef.h>
#include "rules/gen.h"
#include "rules/variant.h"

typedef struct {
	const pk_variant *v;         /* NULL: English draughts, in e */
	union {
		pk_pos e;
		pk_vpos x;
	};
} pk_gpos;

typedef union {
	pk_move e;
	pk_vmove x;
} pk_gmove;

void gpos_english(pk_gpos *g, const pk_pos *p);
void gpos_variant(pk_gpos *g, const pk_vpos *p);
/* The start of v (NULL or English draughts: English draughts'). */
void gpos_start(pk_gpos *g, const pk_variant *v);
int gpos_stm(const pk_gpos *g);
/* The side whose moves open a move number: Black in English draughts, else the variant's. */
int gpos_first(const pk_gpos *g);
/* The key of the position as the rules see it (for repetitions). */
uint64_t gpos_key(const pk_gpos *g);
void gpos_make(const pk_gpos *g, const pk_gmove *m, pk_gpos *out);
/* The number of legal moves. */
int gpos_count(const pk_gpos *g);
/* The legal moves in the generator's order (the ordinals books and stores keep) into
 * out, room for max: their number (at most max), -1 when out of memory. */
int gpos_gen(const pk_gpos *g, pk_gmove *out, int max);
/* Whether two moves have the same effect. */
bool gmove_same(const pk_gpos *g, const pk_gmove *a, const pk_gmove *b);
/* A move as the variant writes it ("11-15", "32-28", "c3-d4"; full: every landing
 * square). */
int gmove_format(const pk_gpos *g, const pk_gmove *m, bool full, char *buf, size_t size);
/* The position's FEN. */
int gpos_fen(const pk_gpos *g, char *buf, size_t size);

#endif
