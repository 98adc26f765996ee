/* A second, slow move generator for the variants, written apart from rules/variant.c to
 * check it: a character board of rows x cols cells, the moving piece lifted off the
 * board while it captures, captured pieces marked dead ('x') until the move ends, and
 * every capture sequence kept as a list before the rules choose among them. Only the
 * variant's flags are shared with the core (they are the rules as data). */
#include <stdlib.h>
#include <string.h>
#include "naive_variant.h"
#include "rules/pos.h"

typedef struct {
	char c[12][12];
	int white_to_move;
	/* Frisian, by [white]: the cell of the king whose quiet moves in a row are counted */
	int kr[2], kc[2], kn[2];
} nboard;

typedef struct {
	int fr, fc, tr, tc;
	uint64_t set[3];             /* captured cells, by row * cols + col (up to 144) */
	int ncap, kings, first_king;
	int by_king, crowned;
} nmove;

typedef struct {
	nmove *m;
	int n, cap;
} nlist;

static int nplayable(const pk_variant *v, int r, int c)
{
	if (v->orthogonal)
		return 1;
	int bottom_left_dark = !v->inverted;
	/* the bottom-left cell is (rows - 1, 0) */
	int dark_parity = bottom_left_dark ? (v->rows - 1) & 1 : !((v->rows - 1) & 1);
	return ((r + c) & 1) == dark_parity;
}

static void push(nlist *l, const nmove *m)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->m = realloc(l->m, sizeof *l->m * (size_t)l->cap);
		if (!l->m)
			abort();
	}
	l->m[l->n++] = *m;
}

static int mine(const nboard *b, char p) { return b->white_to_move ? (p == 'w' || p == 'W') : (p == 'b' || p == 'B'); }
static int theirs(const nboard *b, char p) { return b->white_to_move ? (p == 'b' || p == 'B') : (p == 'w' || p == 'W'); }
static int on(const pk_variant *v, int r, int c) { return r >= 0 && r < v->rows && c >= 0 && c < v->cols; }

/* direction lists: diagonal, or rank and file */
static const int DD[4][2] = { { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 } };
static const int OD[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
/* Frisian captures: the diagonals, and along ranks and files to the next dark cell */
static const int FD[8][2] = { { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 }, { -2, 0 }, { 2, 0 }, { 0, -2 }, { 0, 2 } };

typedef struct {
	const pk_variant *v;
	nboard *b;
	int fr, fc;
	nlist *out;
	nmove cur;
	int stopped;                 /* the call just made ended the sequence there */
} nsearch;

/* Whether a king on (r, c), having come along (ldr, ldc), has a piece to take. */
static int king_can_take(const nsearch *s, int r, int c, int ldr, int ldc)
{
	const pk_variant *v = s->v;
	const int (*D)[2] = v->capture_straight ? FD : v->orthogonal ? OD : DD;
	for (int i = 0; i < (v->capture_straight ? 8 : 4); i++) {
		int ddr = D[i][0], ddc = D[i][1];
		if (v->remove_at_once && ldr == -ddr && ldc == -ddc)
			continue;
		int rr = r + ddr, cc = c + ddc;
		while (on(v, rr, cc) && s->b->c[rr][cc] == '.') {
			rr += ddr;
			cc += ddc;
		}
		if (on(v, rr, cc) && theirs(s->b, s->b->c[rr][cc]) && on(v, rr + ddr, cc + ddc) &&
		    s->b->c[rr + ddr][cc + ddc] == '.')
			return 1;
	}
	return 0;
}

/* A sequence ends on (r, c) after a flying king took the piece on (vr, vc): it may
 * stop there only if no other free square behind that piece, on the same line, lets
 * the king take again (a capture must be completed where it can be). */
static int may_stop(const nsearch *s, int r, int c, int vr, int vc)
{
	const pk_variant *v = s->v;
	int ddr = (r > vr) - (r < vr), ddc = (c > vc) - (c < vc);
	if (v->capture_straight && (ddr == 0 || ddc == 0)) {
		ddr *= 2;                  /* Frisian straight lines: dark cells two apart */
		ddc *= 2;
	}
	for (int rr = vr + ddr, cc = vc + ddc; on(v, rr, cc) && s->b->c[rr][cc] == '.'; rr += ddr, cc += ddc)
		if ((rr != r || cc != c) && king_can_take(s, rr, cc, ddr, ddc))
			return 0;
	return 1;
}

static void ncapture(nsearch *s, int r, int c, int king, int ldr, int ldc)
{
	const pk_variant *v = s->v;
	const int (*D)[2] = v->capture_straight ? FD : v->orthogonal ? OD : DD;
	int fwd = s->b->white_to_move ? -1 : 1, found = 0;
	for (int i = 0; i < (v->capture_straight ? 8 : 4); i++) {
		int ddr = D[i][0], ddc = D[i][1];
		if (!king) {
			if (v->orthogonal && ddr == -fwd)
				continue;                      /* Turkish men: not backwards */
			if (!v->orthogonal && !v->men_capture_back && ddr != fwd)
				continue;
		}
		if (king && v->remove_at_once && ldr == -ddr && ldc == -ddc && (ldr || ldc))
			continue;
		int rr = r + ddr, cc = c + ddc;
		if (king && v->flying)
			while (on(v, rr, cc) && s->b->c[rr][cc] == '.') {
				rr += ddr;
				cc += ddc;
			}
		if (!on(v, rr, cc) || !theirs(s->b, s->b->c[rr][cc]))
			continue;
		char victim = s->b->c[rr][cc];
		if (!king && v->men_spare_kings && (victim == 'W' || victim == 'B'))
			continue;
		int lr = rr + ddr, lc = cc + ddc;
		while (on(v, lr, lc) && s->b->c[lr][lc] == '.') {
			found = 1;
			nmove save = s->cur;
			s->b->c[rr][cc] = v->remove_at_once ? '.' : 'x';
			int idx = rr * v->cols + cc;
			s->cur.set[idx >> 6] |= 1ull << (idx & 63);
			if ((victim == 'W' || victim == 'B') && s->cur.first_king < 0)
				s->cur.first_king = s->cur.ncap;
			s->cur.kings += victim == 'W' || victim == 'B';
			s->cur.ncap++;
			s->cur.tr = lr;
			s->cur.tc = lc;
			int k2 = king;
			int last = s->b->white_to_move ? 0 : v->rows - 1;
			if (!king && v->crown_in_capture && lr == last) {
				k2 = 1;
				s->cur.crowned = 1;
			}
			ncapture(s, lr, lc, k2, ddr, ddc);
			if (s->stopped && king && v->flying && !v->short_landing && !may_stop(s, lr, lc, rr, cc))
				s->out->n--;   /* it stopped short of a further capture */
			s->stopped = 0;
			s->cur = save;
			s->b->c[rr][cc] = victim;
			if (!(king && v->flying) || v->short_landing)
				break;
			lr += ddr;
			lc += ddc;
		}
	}
	if (!found && s->cur.ncap) {
		push(s->out, &s->cur);
		s->stopped = 1;
	}
}

static int same(const nmove *a, const nmove *b)
{
	return a->fr == b->fr && a->fc == b->fc && a->tr == b->tr && a->tc == b->tc && a->set[0] == b->set[0] &&
	       a->set[1] == b->set[1] && a->set[2] == b->set[2];
}

static void ngen(const pk_variant *v, nboard *b, nlist *l)
{
	l->n = 0;
	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++) {
			char p = b->c[r][c];
			if (!mine(b, p))
				continue;
			int king = p == 'W' || p == 'B';
			nsearch s = { v, b, r, c, l, { r, c, r, c, { 0, 0, 0 }, 0, 0, -1, king, 0 }, 0 };
			b->c[r][c] = '.';          /* lifted while it captures */
			ncapture(&s, r, c, king, 0, 0);
			b->c[r][c] = p;
		}
	if (l->n) {
		int n = l->n;
		int *keep = malloc(sizeof *keep * (size_t)n);
		if (!keep)
			abort();
		for (int i = 0; i < n; i++)
			keep[i] = 1;
		int mx = 0, anyk = 0, mk = 0, fk = 99;
		if (v->rule == VRULE_MAX || v->rule == VRULE_SPANISH || v->rule == VRULE_ITALIAN) {
			for (int i = 0; i < n; i++)
				mx = l->m[i].ncap > mx ? l->m[i].ncap : mx;
			for (int i = 0; i < n; i++)
				keep[i] = l->m[i].ncap == mx;
		}
		if (v->rule == VRULE_ITALIAN) {
			for (int i = 0; i < n; i++)
				anyk |= keep[i] && l->m[i].by_king;
			for (int i = 0; i < n; i++)
				if (anyk && !l->m[i].by_king)
					keep[i] = 0;
		}
		if (v->rule == VRULE_SPANISH || v->rule == VRULE_ITALIAN) {
			for (int i = 0; i < n; i++)
				if (keep[i] && l->m[i].kings > mk)
					mk = l->m[i].kings;
			for (int i = 0; i < n; i++)
				if (l->m[i].kings != mk)
					keep[i] = 0;
		}
		if (v->rule == VRULE_ITALIAN && mk > 0) {
			for (int i = 0; i < n; i++)
				if (keep[i] && l->m[i].first_king >= 0 && l->m[i].first_king < fk)
					fk = l->m[i].first_king;
			for (int i = 0; i < n; i++)
				if (l->m[i].first_king != fk)
					keep[i] = 0;
		}
		if (v->rule == VRULE_FRISIAN) {
			for (int i = 0; i < n; i++) {
				int men = l->m[i].ncap - l->m[i].kings;
				if (men * 100 + l->m[i].kings * 199 > mx)
					mx = men * 100 + l->m[i].kings * 199;
			}
			for (int i = 0; i < n; i++) {
				int men = l->m[i].ncap - l->m[i].kings;
				keep[i] = men * 100 + l->m[i].kings * 199 == mx;
				if (keep[i] && l->m[i].by_king)
					anyk = 1;
			}
			for (int i = 0; i < n; i++)
				if (anyk && !l->m[i].by_king)
					keep[i] = 0;
		}
		if (v->rule == VRULE_CZECH) {
			for (int i = 0; i < n; i++)
				anyk |= l->m[i].by_king;
			for (int i = 0; i < n; i++)
				if (anyk && !l->m[i].by_king)
					keep[i] = 0;
		}
		int k = 0;
		for (int i = 0; i < n; i++) {
			if (!keep[i])
				continue;
			int dup = 0;
			for (int j = 0; j < k && !dup; j++)
				dup = same(&l->m[j], &l->m[i]);
			if (!dup)
				l->m[k++] = l->m[i];
		}
		l->n = k;
		free(keep);
		return;
	}
	const int (*D)[2] = v->orthogonal ? OD : DD;
	int fwd = b->white_to_move ? -1 : 1;
	int w = b->white_to_move, stuck = 0;
	if (v->king_moves && b->kn[w] >= v->king_moves)
		for (int r = 0; r < v->rows; r++)
			for (int c = 0; c < v->cols; c++)
				if (b->c[r][c] == (w ? 'w' : 'b'))
					stuck = 1;   /* the limit holds while the side has a man */
	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++) {
			char p = b->c[r][c];
			if (!mine(b, p))
				continue;
			int king = p == 'W' || p == 'B';
			if (king && stuck && r == b->kr[w] && c == b->kc[w])
				continue;
			for (int i = 0; i < 4; i++) {
				int ddr = D[i][0], ddc = D[i][1];
				if (!king && (v->orthogonal ? ddr == -fwd : ddr != fwd))
					continue;
				int rr = r + ddr, cc = c + ddc;
				while (on(v, rr, cc) && b->c[rr][cc] == '.') {
					nmove m = { r, c, rr, cc, { 0, 0, 0 }, 0, 0, -1, king, 0 };
					push(l, &m);
					if (!(king && v->flying))
						break;
					rr += ddr;
					cc += ddc;
				}
			}
		}
}

static void nmake(const pk_variant *v, const nboard *b, const nmove *m, nboard *out)
{
	*out = *b;
	char p = out->c[m->fr][m->fc];
	out->c[m->fr][m->fc] = '.';
	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++) {
			int idx = r * v->cols + c;
			if (m->set[idx >> 6] >> (idx & 63) & 1)
				out->c[r][c] = '.';
		}
	int last = b->white_to_move ? 0 : v->rows - 1;
	if ((p == 'w' || p == 'b') && (m->crowned || m->tr == last))
		p = p == 'w' ? 'W' : 'B';
	out->c[m->tr][m->tc] = p;
	out->white_to_move = !b->white_to_move;
	if (!v->king_moves)
		return;
	int w = b->white_to_move;
	if (m->by_king && m->ncap == 0) {
		int same = b->kn[w] && b->kr[w] == m->fr && b->kc[w] == m->fc;
		out->kn[w] = same ? b->kn[w] + 1 : 1;
		out->kr[w] = m->tr;
		out->kc[w] = m->tc;
	} else {
		out->kn[w] = 0;
	}
	for (int side = 0; side < 2; side++) {
		int men = 0;
		for (int r = 0; r < v->rows; r++)
			for (int c = 0; c < v->cols; c++)
				men += out->c[r][c] == (side ? 'w' : 'b');
		if (!men || out->c[out->kr[side]][out->kc[side]] != (side ? 'W' : 'B'))
			out->kn[side] = 0;
	}
}

static uint64_t nperft(const pk_variant *v, nboard *b, int depth)
{
	if (depth == 0)
		return 1;
	nlist l = { 0 };
	ngen(v, b, &l);
	uint64_t t = 0;
	if (depth == 1)
		t = (uint64_t)l.n;
	else
		for (int i = 0; i < l.n; i++) {
			nboard c;
			nmake(v, b, &l.m[i], &c);
			t += nperft(v, &c, depth - 1);
		}
	free(l.m);
	return t;
}

/* The side to move's value within depth plies, by plain minimax over this generator: a
 * win in d plies is 1000 + d (the quickest), a loss -(1000 + d) (the slowest), 0 when
 * neither is certain within depth. */
static int nsolve(const pk_variant *v, nboard *b, int depth)
{
	nlist l = { 0 };
	ngen(v, b, &l);
	if (l.n == 0) {
		free(l.m);
		return -1000;
	}
	int best_win = 0, worst_loss = 0;
	bool all_lose = depth > 0;
	for (int i = 0; i < l.n && depth > 0; i++) {
		nboard c;
		nmake(v, b, &l.m[i], &c);
		int r = nsolve(v, &c, depth - 1);
		if (r < 0) {
			int d = -r - 1000 + 1;
			if (!best_win || d < best_win)
				best_win = d;
			all_lose = false;
		} else if (r > 0) {
			int d = r - 1000 + 1;
			worst_loss = d > worst_loss ? d : worst_loss;
		} else
			all_lose = false;
	}
	free(l.m);
	if (best_win)
		return 1000 + best_win;
	return all_lose ? -(1000 + worst_loss) : 0;
}

static void nboard_of(const pk_vpos *p, nboard *out);

int naive_variant_solve(const pk_vpos *p, int depth)
{
	nboard b;
	nboard_of(p, &b);
	return nsolve(p->v, &b, depth);
}

uint64_t naive_variant_perft(const pk_vpos *p, int depth)
{
	nboard b;
	nboard_of(p, &b);
	return nperft(p->v, &b, depth);
}

static void nboard_of(const pk_vpos *p, nboard *out)
{
	const pk_variant *v = p->v;
	nboard b;
	memset(&b, 0, sizeof b);
	memset(&b.c, ' ', sizeof b.c);
	b.white_to_move = p->stm == PK_WHITE;
	int sq = 0;
	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++)
			if (nplayable(v, r, c)) {
				int piece = p->sq[++sq];
				for (int side = 0; side < 2; side++)
					if (p->kn[side == 1 ? PK_WHITE : PK_BLACK] &&
					    p->ksq[side == 1 ? PK_WHITE : PK_BLACK] == sq) {
						b.kr[side] = r;
						b.kc[side] = c;
						b.kn[side] = p->kn[side == 1 ? PK_WHITE : PK_BLACK];
					}
				b.c[r][c] = piece == VP_WMAN ? 'w' : piece == VP_WKING ? 'W' : piece == VP_BMAN ? 'b'
					  : piece == VP_BKING ? 'B' : '.';
			}
	*out = b;
}

/* The positions after each legal move of p, by this generator (the core's positions
 * again, for probing): how many, at most max. */
int naive_variant_children(const pk_vpos *p, pk_vpos *out, int max)
{
	const pk_variant *v = p->v;
	nboard b;
	nboard_of(p, &b);
	nlist l = { 0 };
	ngen(v, &b, &l);
	int n = 0;
	for (int i = 0; i < l.n && n < max; i++) {
		nboard q;
		nmake(v, &b, &l.m[i], &q);
		pk_vpos *x = &out[n++];
		vpos_clear(v, x, q.white_to_move ? PK_WHITE : PK_BLACK);
		int sq = 0;
		for (int r = 0; r < v->rows; r++)
			for (int c = 0; c < v->cols; c++)
				if (nplayable(v, r, c)) {
					char ch = q.c[r][c];
					x->sq[++sq] = ch == 'w' ? VP_WMAN : ch == 'W' ? VP_WKING : ch == 'b' ? VP_BMAN : ch == 'B' ? VP_BKING : VP_EMPTY;
				}
	}
	free(l.m);
	return n;
}
