/* Endgame database slices: the material of a slice, its name, and the index function
 * that numbers its positions. Every position is stored from the side to move's point of
 * view: a position with White to move is turned round (square s becomes 33 - s, the
 * colours swap), so a slice holds only "mover to move" positions and its mirror slice
 * holds the other side's. See pdnkit-egdb(5). */
#ifndef PK_EGDB_SLICE_H
#define PK_EGDB_SLICE_H

#include <stdbool.h>
#include <stdint.h>
#include "rules/pos.h"

#define EGDB_MAX_PIECES 8
#define EGDB_INDEX_VERSION 1

/* Men and kings of the side to move (m[0], k[0]) and of the other side (m[1], k[1]). */
typedef struct {
	int m[2], k[2];
} pk_material;

/* The rows a man stands on before it is crowned, counted from its own side's back row. */
#define EGDB_ROWS 7

typedef struct {
	pk_material mat;
	uint64_t size;          /* index range, holes included */
	/* Multipliers of the index's four parts: mover's men, other's men, mover's kings,
	 * other's kings (innermost). */
	uint64_t n_m0, n_m1, n_k0, n_k1;
	/* A part (sub-slice) of a slice: only the positions whose most advanced man of the
	 * side to move is on row lead[0] and of the other side on row lead[1] (rows 0..6,
	 * each side's from its own back row; -1 for a side without men). Its own index: the
	 * mover's men ranked as in the slice less base0 (their rank order is the rows', so a
	 * row is one range), the other side's turned round (square s as 33 - s) and ranked
	 * so, less base1; the kings as in the slice. */
	bool part;
	int lead[2];
	uint64_t base0, base1;
} pk_slice;

static inline int material_pieces(const pk_material *a) { return a->m[0] + a->k[0] + a->m[1] + a->k[1]; }
static inline int material_men(const pk_material *a) { return a->m[0] + a->m[1]; }
static inline bool material_equal(const pk_material *a, const pk_material *b)
{
	return a->m[0] == b->m[0] && a->k[0] == b->k[0] && a->m[1] == b->m[1] && a->k[1] == b->k[1];
}
/* The same material with the other side to move. */
pk_material material_mirror(const pk_material *a);
/* A valid material of a slice: each side at least one piece, at most 12, men <= 12. */
bool material_valid(const pk_material *a);

/* Calls fn for every valid material of n pieces; stops at and returns the first nonzero
 * return. */
int material_each(int n, int (*fn)(const pk_material *, void *), void *ctx);

/* "MMK-MK": the mover's men and kings, a dash, the other side's. Returns the length. */
int material_name(const pk_material *a, char *buf, size_t size);
/* Parses such a name (case-insensitive); 0, or -1 when it is not one. */
int material_parse(const char *s, pk_material *out);

/* The position turned round: Black to move. Keys are not kept (the database never
 * needs them); call pos_compute_key when one is wanted. */
void egdb_canonical(const pk_pos *p, pk_pos *out);
/* The material of a position with Black to move (see egdb_canonical). */
void egdb_material(const pk_pos *canon, pk_material *out);

void slice_init(pk_slice *s, const pk_material *mat);
/* The part of a slice with these leading rows (see pk_slice; -1 for a side without men,
 * required there). */
void slice_init_part(pk_slice *s, const pk_material *mat, int lead0, int lead1);
/* The leading rows of a canonical position: lead[0] of the side to move's men, lead[1]
 * of the other side's (-1 for a side without men). */
void slice_leads(const pk_pos *canon, int lead[2]);
/* The number of rows a side of this many men may lead from (1 without men). */
static inline int slice_lead_rows(int men) { return men ? EGDB_ROWS : 1; }
/* The first row a side of this many men may lead from: -1 without men; a row below it
 * cannot hold them all. */
static inline int slice_lead_min(int men) { return men ? (men - 1) / 4 : -1; }
/* Index of a canonical position of the slice's material. */
uint64_t slice_index(const pk_slice *s, const pk_pos *canon);
/* The position at an index (Black to move); false for a hole (two men on one square). */
bool slice_position(const pk_slice *s, uint64_t idx, pk_pos *out);

/* The same for indices taken in increasing order (a walk over a range): the men and the
 * mover's kings are worked out again only when they change, once in n_k1 indices. */
typedef struct {
	const pk_slice *s;
	uint64_t outer;         /* idx / n_k1 of the last index, or UINT64_MAX */
	bb_t men0, men1, k0;
	bool hole;
} pk_slice_walk;
void slice_walk_init(pk_slice_walk *w, const pk_slice *s);
bool slice_walk_position(pk_slice_walk *w, uint64_t idx, pk_pos *out);

#endif
