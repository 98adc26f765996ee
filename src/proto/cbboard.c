/* The CheckerBoard board and pdnkit's positions. */
#include <string.h>
#include "proto/cbboard.h"

void cb_sq_xy(int sq, int *x, int *y)
{
	int n = sq - 1;
	*y = n / 4;
	*x = 2 * (3 - n % 4) + *y % 2;
}

const char *cb_board_to_pos(int board[8][8], int color, pk_pos *p)
{
	if (color != CB_WHITE && color != CB_BLACK)
		return "the side to move is neither CB_WHITE (1) nor CB_BLACK (2)";
	pos_clear(p, color == CB_WHITE ? PK_WHITE : PK_BLACK);
	for (int sq = 1; sq <= 32; sq++) {
		int x, y;
		cb_sq_xy(sq, &x, &y);
		int v = board[x][y];
		if (v == CB_FREE)
			continue;
		int c = v & (CB_WHITE | CB_BLACK), k = v & (CB_MAN | CB_KING);
		if ((v & ~(CB_WHITE | CB_BLACK | CB_MAN | CB_KING)) || (c != CB_WHITE && c != CB_BLACK) ||
		    (k != CB_MAN && k != CB_KING))
			return "a square holds a code that is no piece";
		pos_put(p, sq, c == CB_WHITE ? PK_WHITE : PK_BLACK, k == CB_KING);
	}
	return pos_impossible(p);
}

int cb_piece_code(const pk_pos *p, int sq)
{
	int col;
	bool king;
	if (!pos_piece_at(p, sq, &col, &king))
		return CB_FREE;
	return (col == PK_WHITE ? CB_WHITE : CB_BLACK) | (king ? CB_KING : CB_MAN);
}

void cb_pos_to_board(const pk_pos *p, int board[8][8])
{
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++)
			board[x][y] = CB_FREE;
	for (int sq = 1; sq <= 32; sq++) {
		int x, y;
		cb_sq_xy(sq, &x, &y);
		board[x][y] = cb_piece_code(p, sq);
	}
}

bool cb_board_light_written(int board[8][8])
{
	bool dark[8][8];
	memset(dark, 0, sizeof dark);
	for (int sq = 1; sq <= 32; sq++) {
		int x, y;
		cb_sq_xy(sq, &x, &y);
		dark[x][y] = true;
	}
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++)
			if (!dark[x][y] && board[x][y] != CB_FREE)
				return true;
	return false;
}

void cb_describe(const pk_pos *before, const pk_move *m, struct CBmove *out)
{
	pk_pos after;
	pos_make(before, m, &after);
	memset(out, 0, sizeof *out);
	out->oldpiece = cb_piece_code(before, m->from + 1);
	out->newpiece = cb_piece_code(&after, move_to(m) + 1);
	cb_sq_xy(m->from + 1, &out->from.x, &out->from.y);
	cb_sq_xy(move_to(m) + 1, &out->to.x, &out->to.y);
	for (int i = 0; i < m->nland && i + 1 < 12; i++)
		cb_sq_xy(m->land[i] + 1, &out->path[i + 1].x, &out->path[i + 1].y);
	int k = 0;
	for (bb_t c = m->captured; c && k < 12; c &= c - 1, k++) {
		int sq = __builtin_ctzll((unsigned long long)c) + 1;
		cb_sq_xy(sq, &out->del[k].x, &out->del[k].y);
		out->delpiece[k] = cb_piece_code(before, sq);
	}
	out->jumps = k;
}
