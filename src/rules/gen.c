/* Legal move generation.
 *
 * Canonical order (GEN_ORDER_VERSION 1): if any capture exists only captures are legal,
 * otherwise only plain moves. Moves are ordered by from-square ascending; the moves of
 * one piece by their landing squares compared one by one, ascending, so a plain move's
 * single destination, or a jump sequence's path read as a sequence of square numbers,
 * decides. Jumps are explored in the direction order up-left, up-right, down-left,
 * down-right, which is ascending landing square, so depth-first order is that order.
 *
 * A piece is removed from the board as it is jumped; the moving piece's start square is
 * empty from its first step; a man that lands on its crowning row ends its move there. */
#include <string.h>
#include "rules/gen.h"
#include "rules/tables.h"

static inline bb_t crown_row(int colour)
{
	return colour == PK_BLACK ? BB_BLACK_KINGROW : BB_WHITE_KINGROW;
}

/* Direction sets as bit masks over DIR_UL..DIR_DR. */
static inline unsigned man_dirs(int colour)
{
	return colour == PK_BLACK ? (1u << DIR_DL) | (1u << DIR_DR) : (1u << DIR_UL) | (1u << DIR_UR);
}
#define KING_DIRS 0xFu

bool gen_has_capture(const pk_pos *p)
{
	int us = p->stm;
	bb_t opp = p->side[!us], empty = pos_empty(p);
	bb_t down = us == PK_BLACK ? p->side[us] : p->side[us] & p->kings;
	bb_t up = us == PK_WHITE ? p->side[us] : p->side[us] & p->kings;

	if (down && ((bb_down_left(bb_down_left(down) & opp) & empty) ||
		     (bb_down_right(bb_down_right(down) & opp) & empty)))
		return true;
	if (up && ((bb_up_left(bb_up_left(up) & opp) & empty) ||
		   (bb_up_right(bb_up_right(up) & opp) & empty)))
		return true;
	return false;
}

/* Single-square steps by direction index, for the jump searches below. */
static inline bb_t step(unsigned d, bb_t x)
{
	switch (d) {
	case DIR_UL: return bb_up_left(x);
	case DIR_UR: return bb_up_right(x);
	case DIR_DL: return bb_down_left(x);
	default: return bb_down_right(x);
	}
}

/* Jump sequences that continue from x (a single bit), where the piece just landed.
 * Returns 0 when none continues. */
static uint64_t count_jumps_from(bb_t x, bb_t opp, bb_t empty, unsigned dirs, bb_t crown)
{
	uint64_t n = 0;
	for (unsigned d = 0; d < 4; d++) {
		if (!(dirs >> d & 1))
			continue;
		bb_t o = step(d, x) & opp;
		bb_t t = step(d, o) & empty;
		if (!t)
			continue;
		if (t & crown) {
			n++;
		} else {
			uint64_t c = count_jumps_from(t, opp ^ o, empty | o, dirs, crown);
			n += c ? c : 1;
		}
	}
	return n;
}

/* Pieces among `down`/`up` movers that have at least one jump. */
static inline bb_t jumpers(bb_t down, bb_t up, bb_t opp, bb_t empty)
{
	return (down & (bb_up_right(bb_up_right(empty) & opp) | bb_up_left(bb_up_left(empty) & opp))) |
	       (up & (bb_down_right(bb_down_right(empty) & opp) | bb_down_left(bb_down_left(empty) & opp)));
}

uint64_t gen_count_captures(const pk_pos *p)
{
	int us = p->stm;
	bb_t own = p->side[us], opp = p->side[!us], empty = pos_empty(p);
	bb_t kings = own & p->kings;
	bb_t down = us == PK_BLACK ? own : kings;
	bb_t up = us == PK_WHITE ? own : kings;
	uint64_t n = 0;
	for (bb_t x = jumpers(down, up, opp, empty); x; x = bb_clear_first(x)) {
		bb_t sq = x & (0u - x);
		bool king = (kings & sq) != 0;
		n += count_jumps_from(sq, opp, empty | sq, king ? KING_DIRS : man_dirs(us),
				      king ? 0 : crown_row(us));
	}
	return n;
}

static inline uint64_t count_plain(const pk_pos *p)
{
	int us = p->stm;
	bb_t empty = pos_empty(p);
	bb_t down = us == PK_BLACK ? p->side[us] : p->side[us] & p->kings;
	bb_t up = us == PK_WHITE ? p->side[us] : p->side[us] & p->kings;
	return (uint64_t)(bb_count(bb_down_left(down) & empty) + bb_count(bb_down_right(down) & empty) +
			  bb_count(bb_up_left(up) & empty) + bb_count(bb_up_right(up) & empty));
}

static inline void push(pk_movelist *ml, const pk_move *m)
{
	if (ml->n < PK_MAX_MOVES)
		ml->m[ml->n++] = *m;
	else
		ml->overflow = true;
}

static void gen_jumps_from(pk_movelist *ml, pk_move *cur, bb_t x, bb_t opp, bb_t empty,
			   unsigned dirs, bb_t crown)
{
	bool extended = false;
	for (unsigned d = 0; d < 4; d++) {
		if (!(dirs >> d & 1))
			continue;
		bb_t o = step(d, x) & opp;
		bb_t t = step(d, o) & empty;
		if (!t)
			continue;
		extended = true;
		cur->land[cur->nland++] = (uint8_t)bb_first(t);
		cur->captured |= o;
		if (t & crown)
			push(ml, cur);
		else
			gen_jumps_from(ml, cur, t, opp ^ o, empty | o, dirs, crown);
		cur->captured ^= o;
		cur->nland--;
	}
	if (!extended && cur->nland > 0)
		push(ml, cur);
}

static void gen_captures(const pk_pos *p, pk_movelist *ml)
{
	int us = p->stm;
	bb_t own = p->side[us], opp = p->side[!us], empty = pos_empty(p);
	bb_t kings = own & p->kings;
	bb_t down = us == PK_BLACK ? own : kings;
	bb_t up = us == PK_WHITE ? own : kings;
	for (bb_t x = jumpers(down, up, opp, empty); x; x = bb_clear_first(x)) {
		bb_t sq = x & (0u - x);
		bool king = (kings & sq) != 0;
		pk_move cur = { .from = (uint8_t)bb_first(sq), .nland = 0, .captured = 0 };
		gen_jumps_from(ml, &cur, sq, opp, empty | sq, king ? KING_DIRS : man_dirs(us),
			       king ? 0 : crown_row(us));
	}
}

static inline void push_step(pk_movelist *ml, int from, bb_t t)
{
	if (t) {
		pk_move *m = &ml->m[ml->n++];
		m->from = (uint8_t)from;
		m->nland = 1;
		m->land[0] = (uint8_t)bb_first(t);
		m->captured = 0;
	}
}

/* At most 12 pieces with 4 steps each: always fits in the list. */
static void gen_plain(const pk_pos *p, pk_movelist *ml)
{
	int us = p->stm;
	bb_t empty = pos_empty(p), kings = p->kings;
	for (bb_t x = p->side[us]; x; x = bb_clear_first(x)) {
		bb_t sq = x & (0u - x);
		int from = bb_first(sq);
		bool king = (kings & sq) != 0;
		if (king || us == PK_WHITE) {
			push_step(ml, from, bb_up_left(sq) & empty);
			push_step(ml, from, bb_up_right(sq) & empty);
		}
		if (king || us == PK_BLACK) {
			push_step(ml, from, bb_down_left(sq) & empty);
			push_step(ml, from, bb_down_right(sq) & empty);
		}
	}
}

/* Plain-move targets of the pieces in x, one count per piece and step. */
static inline int plain_steps(const pk_pos *p, bb_t x, bb_t empty)
{
	int us = p->stm;
	bb_t down = us == PK_BLACK ? x : x & p->kings;
	bb_t up = us == PK_WHITE ? x : x & p->kings;
	return bb_count(bb_down_left(down) & empty) + bb_count(bb_down_right(down) & empty) +
	       bb_count(bb_up_left(up) & empty) + bb_count(bb_up_right(up) & empty);
}

int gen_plain_ordinal(const pk_pos *p, int from, int to, int *nlegal)
{
	int us = p->stm;
	bb_t empty = pos_empty(p), own = p->side[us];
	*nlegal = plain_steps(p, own, empty);
	if (from < 0 || from > 31 || to < 0 || to > 31 || !(own >> from & 1) || !(empty >> to & 1))
		return -1;
	bb_t sq = bb_sq(from), t = bb_sq(to);
	bool king = (p->kings & sq) != 0;
	bb_t targets[4] = {
		(king || us == PK_WHITE) ? bb_up_left(sq) & empty : 0,
		(king || us == PK_WHITE) ? bb_up_right(sq) & empty : 0,
		(king || us == PK_BLACK) ? bb_down_left(sq) & empty : 0,
		(king || us == PK_BLACK) ? bb_down_right(sq) & empty : 0,
	};
	int before = plain_steps(p, own & (sq - 1), empty);
	for (int d = 0; d < 4; d++) {
		if (targets[d] == t)
			return before;
		before += targets[d] != 0;
	}
	return -1;
}

int gen_moves(const pk_pos *p, pk_movelist *ml)
{
	ml->n = 0;
	ml->overflow = false;
	if (gen_has_capture(p))
		gen_captures(p, ml);
	else
		gen_plain(p, ml);
	return ml->n;
}

static void drop_repeated_effects(pk_movelist *ml)
{
	int k = 0;
	for (int i = 0; i < ml->n; i++) {
		bool seen = false;
		for (int j = 0; j < k && !seen; j++)
			seen = move_same_effect(&ml->m[j], &ml->m[i]);
		if (!seen)
			ml->m[k++] = ml->m[i];
	}
	ml->n = k;
}

int gen_moves_unique(const pk_pos *p, pk_movelist *ml)
{
	gen_moves(p, ml);
	drop_repeated_effects(ml);
	return ml->n;
}

uint64_t gen_count_unique(const pk_pos *p)
{
	if (!gen_has_capture(p))
		return count_plain(p);
	pk_movelist ml;
	return (uint64_t)gen_moves_unique(p, &ml);
}
