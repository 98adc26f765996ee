/* Square sets to and from naive.c's arrays and pdnkit's positions (naive_key.h). */
#include "naive_key.h"

static void sq_rc(int sq, int *r, int *c)
{
	*r = (sq - 1) / 4;
	int i = (sq - 1) % 4;
	*c = (*r % 2 == 0) ? 2 * i + 1 : 2 * i;
}

nk_key nk_of(const nv_pos *p)
{
	nk_key k = { 0, 0, 0, (uint32_t)p->black_to_move };
	for (int sq = 1; sq <= 32; sq++) {
		int r, c;
		sq_rc(sq, &r, &c);
		int v = p->board[r][c];
		uint32_t b = 1u << (sq - 1);
		if (v == NV_BM || v == NV_BK)
			k.black |= b;
		if (v == NV_WM || v == NV_WK)
			k.white |= b;
		if (v == NV_BK || v == NV_WK)
			k.kings |= b;
	}
	return k;
}

void nk_to_nv(const nk_key *k, nv_pos *p)
{
	int kind[33] = { 0 };
	for (int sq = 1; sq <= 32; sq++) {
		uint32_t b = 1u << (sq - 1);
		bool king = k->kings & b;
		if (k->black & b)
			kind[sq] = king ? NV_BK : NV_BM;
		else if (k->white & b)
			kind[sq] = king ? NV_WK : NV_WM;
	}
	nv_from_squares(p, kind, k->stm);
}

pk_pos nk_to_pos(const nk_key *k)
{
	pk_pos p;
	pos_clear(&p, k->stm ? PK_BLACK : PK_WHITE);
	for (int sq = 1; sq <= 32; sq++) {
		uint32_t b = 1u << (sq - 1);
		if (k->black & b)
			pos_put(&p, sq, PK_BLACK, k->kings & b);
		else if (k->white & b)
			pos_put(&p, sq, PK_WHITE, k->kings & b);
	}
	return p;
}
