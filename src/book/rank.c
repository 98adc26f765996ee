/* The ranking a book codes its moves by (ranking version 1, pdnkit-book(5)): a fixed
 * static evaluation, after the compulsory captures are played out, orders the legal
 * moves. It is part of the file format, so it is frozen here with its own constants:
 * it was the engine's hand-set evaluation when version 1 was defined, and it must not
 * follow the engine when the engine's evaluation or weights change. Any change to this
 * file is a new BOOK_RANK_VERSION; tests/test_book.c checks the shipped book loads. */
#include <stdlib.h>
#include <string.h>
#include "book/book.h"
#include "rules/fen.h"

enum { KING = 130, BACK_RANK = 6, BRIDGE = 8, CENTRE_MAN = 5, CENTRE_KING = 8, EDGE_MAN = -3,
       MOBILITY = 2, TEMPO = 1, RUNAWAY = 30, DOG_HOLE = -10, TRADE_DOWN = 4, KING_CORNER = 25,
       DRIVE = 3 };

#define CENTRE ((1u << 9) | (1u << 10) | (1u << 13) | (1u << 14) | (1u << 17) | (1u << 18) | (1u << 21) | (1u << 22))
#define EDGES  ((1u << 4) | (1u << 11) | (1u << 12) | (1u << 19) | (1u << 20) | (1u << 27))
#define DOUBLE_CORNERS ((1u << 0) | (1u << 4) | (1u << 27) | (1u << 31))

static int row_of(int b) { return b / 4; }
static int col_of(int b) { return (b / 4) % 2 == 0 ? 2 * (b % 4) + 1 : 2 * (b % 4); }
static int distance(int a, int b)
{
	int dr = abs(row_of(a) - row_of(b)), dc = abs(col_of(a) - col_of(b));
	return dr > dc ? dr : dc;
}

static bb_t forward(bb_t x, int colour)
{
	return colour == PK_BLACK ? bb_down_left(x) | bb_down_right(x) : bb_up_left(x) | bb_up_right(x);
}

/* Men with an unopposed walk to the crowning row: no enemy in the cone ahead, the next
 * step free, at most three rows to go. */
static int runaways(const pk_pos *p, int colour)
{
	bb_t enemy = p->side[!colour], empty = pos_empty(p);
	int n = 0;
	/* only men at most three rows from crowning: black's squares 16-31, white's 0-15 */
	bb_t near = colour == PK_BLACK ? 0xFFFF0000u : 0x0000FFFFu;
	for (bb_t x = p->side[colour] & ~p->kings & near; x; x = bb_clear_first(x)) {
		int b = bb_first(x), to_go = colour == PK_BLACK ? 7 - row_of(b) : row_of(b);
		bb_t cone = 0, front = bb_sq(b);
		for (int k = 0; k < to_go; k++)
			cone |= front = forward(front, colour);
		n += !(cone & enemy) && (forward(bb_sq(b), colour) & empty);
	}
	return n;
}

static int plain_moves(const pk_pos *p, int colour)
{
	bb_t own = p->side[colour], empty = pos_empty(p);
	bb_t down = colour == PK_BLACK ? own : own & p->kings;
	bb_t up = colour == PK_WHITE ? own : own & p->kings;
	return bb_count(bb_down_left(down) & empty) + bb_count(bb_down_right(down) & empty) +
	       bb_count(bb_up_left(up) & empty) + bb_count(bb_up_right(up) & empty);
}

/* Two or more kings against a lone king. */
static int mop_up(const pk_pos *p)
{
	for (int s = 0; s < 2; s++) {
		bb_t strong = p->side[s], weak = p->side[!s];
		if (bb_count(weak) != 1 || !(weak & p->kings) || bb_count(strong & p->kings) < 2)
			continue;
		int wsq = bb_first(weak), near = 0, total = 0;
		for (bb_t k = strong & p->kings; k; k = bb_clear_first(k)) {
			int d = distance(bb_first(k), wsq);
			total += 7 - d;
			near += d <= 2;
		}
		int v = 12 * total + 20 * (near > 0) + (DOUBLE_CORNERS & weak ? 0 : 30);
		return s == PK_BLACK ? v : -v;
	}
	return 0;
}

/* The static value, side to move's view. */
static int value(const pk_pos *p)
{
	bb_t bm = p->side[PK_BLACK] & ~p->kings, wm = p->side[PK_WHITE] & ~p->kings;
	bb_t bk = p->side[PK_BLACK] & p->kings, wk = p->side[PK_WHITE] & p->kings;
	int nbm = bb_count(bm), nwm = bb_count(wm), nbk = bb_count(bk), nwk = bb_count(wk);
	int pieces = nbm + nwm + nbk + nwk;
	int v = 100 * (nbm - nwm) + KING * (nbk - nwk);
	v += BACK_RANK * (bb_count(bm & BB_WHITE_KINGROW) - bb_count(wm & BB_BLACK_KINGROW));
	v += BRIDGE * (((bm & 0x5u) == 0x5u) - ((wm & 0xA0000000u) == 0xA0000000u));
	v += CENTRE_MAN * (bb_count(bm & CENTRE) - bb_count(wm & CENTRE));
	v += CENTRE_KING * (bb_count(bk & CENTRE) - bb_count(wk & CENTRE));
	v += EDGE_MAN * (bb_count(bm & EDGES) - bb_count(wm & EDGES));
	v += MOBILITY * (plain_moves(p, PK_BLACK) - plain_moves(p, PK_WHITE));
	if (pieces >= 10 && pieces <= 20) {
		int tempo = 0;
		for (bb_t x = bm; x; x = bb_clear_first(x))
			tempo += row_of(bb_first(x));
		for (bb_t x = wm; x; x = bb_clear_first(x))
			tempo -= 7 - row_of(bb_first(x));
		v += TEMPO * tempo;
	}
	v += RUNAWAY * (runaways(p, PK_BLACK) - runaways(p, PK_WHITE));
	v += DOG_HOLE * (int)(((bm >> 4) & 1) - ((wm >> 27) & 1));
	int bmat = 100 * nbm + 130 * nbk, wmat = 100 * nwm + 130 * nwk;
	if (bmat != wmat) {
		int sign = bmat > wmat ? 1 : -1;
		v += TRADE_DOWN * sign * (24 - pieces);
		bb_t strong_kings = sign > 0 ? bk : wk, weak = p->side[sign > 0 ? PK_WHITE : PK_BLACK];
		bb_t weak_kings = weak & p->kings;
		if (weak == weak_kings && bb_count(weak) <= 2 && strong_kings) {
			v += KING_CORNER * -sign * bb_count(weak_kings & DOUBLE_CORNERS);
			int close = 0;
			for (bb_t s = strong_kings; s; s = bb_clear_first(s))
				for (bb_t w = weak_kings; w; w = bb_clear_first(w))
					close += 7 - distance(bb_first(s), bb_first(w));
			v += DRIVE * sign * close;
		}
	}
	v += mop_up(p);
	return p->stm == PK_BLACK ? v : -v;
}

/* The value after the compulsory captures are played out (at most 8 plies of them). */
static int settle(const pk_pos *p, int depth)
{
	/* the same as generating the moves first: a position without a capture moves
	 * plainly or not at all */
	if (!gen_has_capture(p))
		return plain_moves(p, p->stm) ? value(p) : -20000;
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	if (depth >= 8)
		return value(p);
	int best = -30000;
	for (int i = 0; i < n; i++) {
		pk_pos c;
		pos_make(p, &ml.m[i], &c);
		int v = -settle(&c, depth + 1);
		if (v > best)
			best = v;
	}
	return best;
}

/* rank[i]: the place of move i when the moves are ordered by val, best first, ties in
 * generator order (order: scratch of n, holding 0..n-1). */
static void ranks_by_value(const int *val, int *order, int n, int *rank)
{
	for (int i = 1; i < n; i++) {     /* insertion sort: stable */
		int v = order[i], k = i;
		while (k > 0 && val[order[k - 1]] < val[v]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = v;
	}
	for (int r = 0; r < n; r++)
		rank[order[r]] = r;
}

void book_rank_moves(const pk_pos *p, const pk_movelist *ml, int *rank)
{
	int val[PK_MAX_MOVES], order[PK_MAX_MOVES];
	for (int i = 0; i < ml->n; i++) {
		pk_pos c;
		pos_make(p, &ml->m[i], &c);
		val[i] = ml->n > 1 ? -settle(&c, 0) : 0;
		order[i] = i;
	}
	ranks_by_value(val, order, ml->n, rank);
}

uint32_t book_rank_check(void)
{
	static const char *const fens[] = {
		"B:W21-32:B1-12",
		"W:W18,21,22,23,24,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,8,10,11,12,14",
		"B:W17,21,22,23,25,26,27,28,29,30,31:B1,2,3,5,6,7,8,9,10,11,12,16",
		"W:WK10,19,22,27:B5,K14,15,16,17",
	};
	uint32_t h = 2166136261u;
	for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
		pk_pos p;
		pk_fen_error fe;
		if (fen_parse(fens[f], strlen(fens[f]), &p, &fe) < 0)
			continue;
		pk_movelist ml;
		gen_moves(&p, &ml);
		int rank[PK_MAX_MOVES];
		book_rank_moves(&p, &ml, rank);
		for (int i = 0; i < ml.n; i++)
			h = (h ^ (uint32_t)rank[i]) * 16777619u;
	}
	return h;
}

/* ---- the other variants (ranking version BOOK_VRANK_VERSION 1) ----------------------
 * Frozen like the English one above, and independent of the variant engines' fitted
 * weights: material (a man 100, a king 300 where kings fly, else 150), each man's rows
 * advanced, pieces on the middle columns, men still on their own back row; after the
 * compulsory captures are played out (up to six plies). */

enum { V_MAN = 100, V_FLYING_KING = 300, V_SHORT_KING = 150, V_ADVANCE = 4, V_CENTRE = 3, V_BACK = 5 };

static int vvalue(const pk_vpos *p)
{
	const pk_variant *v = p->v;
	int n = variant_squares(v), val = 0, king = v->flying ? V_FLYING_KING : V_SHORT_KING;
	for (int s = 1; s <= n; s++) {
		int piece = p->sq[s];
		if (piece == VP_EMPTY)
			continue;
		int white = piece == VP_WMAN || piece == VP_WKING, r, c, x = 0;
		variant_square_rc(v, s, &r, &c);
		if (piece == VP_WKING || piece == VP_BKING)
			x = king;
		else {
			int advanced = white ? v->rows - 1 - r : r;
			x = V_MAN + V_ADVANCE * advanced + (advanced == 0 ? V_BACK : 0);
		}
		if (4 * c >= v->cols && 4 * c < 3 * v->cols)
			x += V_CENTRE;
		val += white ? x : -x;
	}
	return p->stm == PK_WHITE ? val : -val;
}

static int vsettle(const pk_vpos *p, int depth)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return vvalue(p);
	int n = vgen(p, ml), best;
	if (n == 0)
		best = -20000;
	else if (ml->m[0].ncap == 0 || depth >= 6)
		best = vvalue(p);
	else {
		best = -30000;
		for (int i = 0; i < n; i++) {
			pk_vpos c;
			vmake(p, &ml->m[i], &c);
			int x = -vsettle(&c, depth + 1);
			if (x > best)
				best = x;
		}
	}
	free(ml);
	return best;
}

void book_vrank_moves(const pk_vpos *p, const pk_vmovelist *ml, int *rank)
{
	int val[VAR_MAX_MOVES], order[VAR_MAX_MOVES];
	for (int i = 0; i < ml->n; i++) {
		pk_vpos c;
		vmake(p, &ml->m[i], &c);
		val[i] = ml->n > 1 ? -vsettle(&c, 0) : 0;
		order[i] = i;
	}
	ranks_by_value(val, order, ml->n, rank);
}

uint32_t book_vrank_check(const pk_variant *v)
{
	/* the start and the positions after the first two moves of each kind */
	uint32_t h = 2166136261u ^ (uint32_t)v->gametype;
	pk_vpos p;
	vpos_start(v, &p);
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	int rank[VAR_MAX_MOVES];
	for (int step = 0; step < 3; step++) {
		int n = vgen(&p, ml);
		if (n == 0)
			break;
		book_vrank_moves(&p, ml, rank);
		for (int i = 0; i < n; i++)
			h = (h ^ (uint32_t)rank[i]) * 16777619u;
		pk_vpos q;
		vmake(&p, &ml->m[n / 2], &q);
		p = q;
	}
	free(ml);
	return h;
}
