/* Positions: setting up, reading squares, making moves with incremental Zobrist keys. */
#include <string.h>
#include "rules/pos.h"
#include "rules/move.h"
#include "rules/tables.h"

void pos_clear(pk_pos *p, int stm)
{
	memset(p, 0, sizeof *p);
	p->stm = stm;
	p->key = stm == PK_WHITE ? zob_white_to_move : 0;
}

void pos_start(pk_pos *p)
{
	pos_clear(p, PK_BLACK);
	for (int sq = 1; sq <= 12; sq++)
		pos_put(p, sq, PK_BLACK, false);
	for (int sq = 21; sq <= 32; sq++)
		pos_put(p, sq, PK_WHITE, false);
}

void pos_put(pk_pos *p, int sq, int colour, bool king)
{
	int b = sq - 1;
	p->side[colour] |= bb_sq(b);
	if (king)
		p->kings |= bb_sq(b);
	p->key ^= zob_piece[colour][king][b];
}

int pos_piece_at(const pk_pos *p, int sq, int *colour, bool *king)
{
	bb_t s = bb_sq(sq - 1);
	if (!((p->side[0] | p->side[1]) & s))
		return 0;
	*colour = (p->side[PK_WHITE] & s) ? PK_WHITE : PK_BLACK;
	*king = (p->kings & s) != 0;
	return 1;
}

uint64_t pos_compute_key(const pk_pos *p)
{
	uint64_t k = p->stm == PK_WHITE ? zob_white_to_move : 0;
	for (int c = 0; c < 2; c++)
		for (bb_t x = p->side[c]; x; x = bb_clear_first(x)) {
			int b = bb_first(x);
			k ^= zob_piece[c][(p->kings >> b) & 1][b];
		}
	return k;
}

bool pos_equal(const pk_pos *a, const pk_pos *b)
{
	return a->side[0] == b->side[0] && a->side[1] == b->side[1] &&
	       a->kings == b->kings && a->stm == b->stm;
}

void pos_make(const pk_pos *p, const pk_move *m, pk_pos *out)
{
	int us = p->stm, them = !us;
	int from = m->from, to = move_to(m);
	bool king = (p->kings >> from) & 1;
	uint64_t key = p->key ^ zob_white_to_move;

	*out = *p;
	/* Not an XOR: a king's capture may end on the square it started from. */
	out->side[us] = (out->side[us] & ~bb_sq(from)) | bb_sq(to);
	key ^= zob_piece[us][king][from];
	if (!king && (bb_sq(to) & (us == PK_BLACK ? BB_BLACK_KINGROW : BB_WHITE_KINGROW)))
		king = true;
	if (king)
		out->kings = (out->kings & ~bb_sq(from)) | bb_sq(to);
	key ^= zob_piece[us][king][to];

	for (bb_t c = m->captured; c; c = bb_clear_first(c)) {
		int b = bb_first(c);
		key ^= zob_piece[them][(p->kings >> b) & 1][b];
	}
	out->side[them] &= ~m->captured;
	out->kings &= ~m->captured;
	out->stm = them;
	out->key = key;
}

const char *pos_impossible(const pk_pos *p)
{
	if (p->side[PK_WHITE] & ~p->kings & BB_WHITE_KINGROW)
		return "a white man on its crowning row (squares 1-4)";
	if (p->side[PK_BLACK] & ~p->kings & BB_BLACK_KINGROW)
		return "a black man on its crowning row (squares 29-32)";
	if (!(p->side[0] | p->side[1]))
		return "no pieces on the board";
	if (__builtin_popcountll((unsigned long long)p->side[PK_WHITE]) > 12 ||
	    __builtin_popcountll((unsigned long long)p->side[PK_BLACK]) > 12)
		return "more than 12 pieces of one side";
	return NULL;
}
