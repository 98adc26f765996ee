/* The test-only reference generator: rows, columns and recursion, nothing clever. */
#include <string.h>
#include "naive.h"

static void sq_to_rc(int sq, int *r, int *c)
{
	*r = (sq - 1) / 4;
	int i = (sq - 1) % 4;
	*c = (*r % 2 == 0) ? 2 * i + 1 : 2 * i;
}

static int rc_to_sq(int r, int c)
{
	if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0)
		return 0;
	return r * 4 + c / 2 + 1;
}

void nv_from_squares(nv_pos *p, const int *kind, bool black_to_move)
{
	memset(p, 0, sizeof *p);
	p->black_to_move = black_to_move;
	for (int sq = 1; sq <= 32; sq++) {
		int r, c;
		sq_to_rc(sq, &r, &c);
		p->board[r][c] = kind[sq];
	}
}

static bool is_black(int k) { return k == NV_BM || k == NV_BK; }
static bool is_white(int k) { return k == NV_WM || k == NV_WK; }
static bool is_king(int k) { return k == NV_BK || k == NV_WK; }

static const int DR[4] = { -1, -1, 1, 1 }, DC[4] = { -1, 1, -1, 1 };

static bool may_go(int kind, int d)
{
	if (is_king(kind))
		return true;
	return kind == NV_BM ? DR[d] > 0 : DR[d] < 0;
}

static bool enemy(int mover, int other)
{
	return is_black(mover) ? is_white(other) : is_black(other);
}

typedef struct {
	nv_move *out;
	int n, max;
} sink;

static void jumps(int b[8][8], int kind, int r, int c, nv_move *cur, sink *s)
{
	bool more = false;
	for (int d = 0; d < 4; d++) {
		if (!may_go(kind, d))
			continue;
		int mr = r + DR[d], mc = c + DC[d], tr = r + 2 * DR[d], tc = c + 2 * DC[d];
		if (!rc_to_sq(tr, tc) || !enemy(kind, b[mr][mc]) || b[tr][tc] != NV_EMPTY)
			continue;
		more = true;
		int taken = b[mr][mc];
		b[mr][mc] = NV_EMPTY;
		cur->path[cur->len++] = rc_to_sq(tr, tc);
		cur->captured |= 1u << (rc_to_sq(mr, mc) - 1);
		bool crowned = !is_king(kind) && (kind == NV_BM ? tr == 7 : tr == 0);
		if (crowned) {
			if (s->n < s->max)
				s->out[s->n] = *cur;
			s->n++;
		} else {
			jumps(b, kind, tr, tc, cur, s);
		}
		cur->captured &= ~(1u << (rc_to_sq(mr, mc) - 1));
		cur->len--;
		b[mr][mc] = taken;
	}
	if (!more && cur->len > 1) {
		if (s->n < s->max)
			s->out[s->n] = *cur;
		s->n++;
	}
}

int nv_moves(const nv_pos *p, nv_move *out, int max)
{
	sink s = { out, 0, max };
	int b[8][8];
	memcpy(b, p->board, sizeof b);
	for (int r = 0; r < 8; r++)
		for (int c = 0; c < 8; c++) {
			int k = b[r][c];
			if (k == NV_EMPTY || is_black(k) != (p->black_to_move != 0))
				continue;
			nv_move cur = { .path = { rc_to_sq(r, c) }, .len = 1, .captured = 0 };
			b[r][c] = NV_EMPTY;
			jumps(b, k, r, c, &cur, &s);
			b[r][c] = k;
		}
	if (s.n > 0)
		return s.n;
	for (int r = 0; r < 8; r++)
		for (int c = 0; c < 8; c++) {
			int k = b[r][c];
			if (k == NV_EMPTY || is_black(k) != (p->black_to_move != 0))
				continue;
			for (int d = 0; d < 4; d++) {
				int tr = r + DR[d], tc = c + DC[d];
				if (!may_go(k, d) || !rc_to_sq(tr, tc) || b[tr][tc] != NV_EMPTY)
					continue;
				if (s.n < max)
					out[s.n] = (nv_move){ .path = { rc_to_sq(r, c), rc_to_sq(tr, tc) }, .len = 2 };
				s.n++;
			}
		}
	return s.n;
}

void nv_make(const nv_pos *p, const nv_move *m, nv_pos *out)
{
	*out = *p;
	int r, c, tr, tc;
	sq_to_rc(m->path[0], &r, &c);
	sq_to_rc(m->path[m->len - 1], &tr, &tc);
	int k = out->board[r][c];
	out->board[r][c] = NV_EMPTY;
	for (int sq = 1; sq <= 32; sq++)
		if (m->captured >> (sq - 1) & 1) {
			int cr, cc;
			sq_to_rc(sq, &cr, &cc);
			out->board[cr][cc] = NV_EMPTY;
		}
	if (k == NV_BM && tr == 7)
		k = NV_BK;
	if (k == NV_WM && tr == 0)
		k = NV_WK;
	out->board[tr][tc] = k;
	out->black_to_move = !p->black_to_move;
}

static bool same_effect(const nv_move *a, const nv_move *b)
{
	return a->path[0] == b->path[0] && a->path[a->len - 1] == b->path[b->len - 1] &&
	       a->captured == b->captured;
}

uint64_t nv_perft(const nv_pos *p, int depth, bool unique)
{
	if (depth == 0)
		return 1;
	nv_move ms[512];
	int n = nv_moves(p, ms, 512);
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		if (unique) {
			bool dup = false;
			for (int j = 0; j < i && !dup; j++)
				dup = same_effect(&ms[j], &ms[i]);
			if (dup)
				continue;
		}
		nv_pos c;
		nv_make(p, &ms[i], &c);
		total += nv_perft(&c, depth - 1, unique);
	}
	return total;
}
