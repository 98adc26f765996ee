/* The engine of the other variants: their evaluation, and the search of English draughts
 * instanced over rules/variant.c's positions (search_mb.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/eval.h"
#include "engine/search_mb.h"
#include "engine/vsearch.h"
#include "egdb/vegdb.h"
#include "engine/net.h"
#include "engine/vpattern.h"
#include "rules/pos.h"

/* The engine of a search: the mailbox instance of the English search (search_mb.c),
 * with this file's evaluation, the weights given and the root moves left out. */
struct pk_vengine {
	mb_engine *e;
	pk_vweights set_w;                     /* vengine_set_weights() */
	bool own_weights;
	pk_features set_f;                     /* vengine_set_features() (features_all) */
	pk_vmove exclude[VAR_MAX_MOVES];       /* root moves left out of the next search */
	int nexclude;
	bool tables_chosen;                    /* vengine_set_tables_dir() was called */
	char *tables_dir;                      /* and named this directory (NULL: none) */
};

const char *const vweight_names[VW_NUM] = { "king",    "advance",  "centre",     "mobility",
					    "back_rank", "advance_late", "balance", "runaway",
					    "edge",     "outpost",  "king_diag", "trade",
					    "backed",   "safe", "drawish", "king_first" };

/* By kind: flying kings are worth more, and short-king games reward the back row; the
 * terms from advance_late on are 0 until a variant's file (book/weights-*.txt) sets them. */
void vweights_hand_set(const pk_variant *v, pk_vweights *w)
{
	memset(w, 0, sizeof *w);
	w->w[VW_KING] = v->flying ? 300 : 160;
	w->w[VW_ADVANCE] = v->flying ? 3 : 4;
	w->w[VW_CENTRE] = 4;
	w->w[VW_MOBILITY] = 2;
	w->w[VW_BACK_RANK] = v->flying ? 3 : 6;
}

int vweights_parse(const char *text, pk_vweights *w, int *gametype, char *err, size_t errsize)
{
	const char *names[VW_NUM + 1] = { "gametype" };
	memcpy(names + 1, vweight_names, sizeof vweight_names);
	int vals[VW_NUM + 1];
	vals[0] = 0;
	memcpy(vals + 1, w->w, sizeof w->w);
	if (weights_parse_named(text, names, VW_NUM + 1, vals, err, errsize) < 0)
		return -1;
	*gametype = vals[0];
	memcpy(w->w, vals + 1, sizeof w->w);
	return 0;
}

/* book/weights-*.txt as text (the Makefile builds them in), parsed once. */
extern const char *const vweights_texts[];
#define MAX_FITTED 8
static struct {
	int gametype;
	pk_vweights w;
} fitted[MAX_FITTED];
static int nfitted;
static pthread_once_t fitted_once = PTHREAD_ONCE_INIT;

static void read_fitted(void)
{
	for (int i = 0; vweights_texts[i] && nfitted < MAX_FITTED; i++) {
		pk_vweights w = { 0 };
		int gt;
		char err[160];
		if (vweights_parse(vweights_texts[i], &w, &gt, err, sizeof err) < 0)
			continue;   /* a broken file is caught by the tests */
		const pk_variant *v = variant_by_gametype(gt);
		if (!v)
			continue;
		pk_vweights base;
		vweights_hand_set(v, &base);
		if (vweights_parse(vweights_texts[i], &base, &gt, err, sizeof err) < 0)
			continue;
		base.tuned = true;
		fitted[nfitted].gametype = gt;
		fitted[nfitted++].w = base;
	}
}

void vweights_for(const pk_variant *v, pk_vweights *w)
{
	pthread_once(&fitted_once, read_fitted);
	bool found = false;
	for (int i = 0; i < nfitted && !found; i++)
		if (fitted[i].gametype == v->gametype) {
			*w = fitted[i].w;
			found = true;
		}
	if (!found)
		vweights_hand_set(v, w);
	w->pat = vpatterns_builtin(v);
	w->net = vpattern_board(v) ? net_builtin_variant(v->key) : NULL;
}

/* Each variant's rows and columns of its squares, its squares by row and column (0:
 * none), which long diagonal is made of playing squares, and its pieces at the start,
 * made once. */
#define NBOARDS 32
typedef struct {
	uint8_t row[VAR_MAX_SQ + 1], col[VAR_MAX_SQ + 1];
	uint8_t at[12][12];   /* the largest board: Canadian draughts, 12 x 12 */
	bool diag_up;        /* the long diagonal of playing squares is row + col = cols - 1 */
	int start_pieces;
	/* boards of up to 64 squares: the squares (bit q - 1) of a man's path's cone
	 * (free_path), by side (0 White) and square */
	uint64_t cone[2][VAR_MAX_SQ + 1];
	/* boards with bitboards (rules/vbits.h), masks in their bits: each row, the centre
	 * columns, the side columns, each wing, the long diagonal, the rows where a man may
	 * run away (by side, 0 White), and the cone of each bit (as cone) */
	bool bits;
	uint64_t rowb[12], centreb, edgeb, leftb, rightb, diagb, farb[2];
	uint64_t rowbit[4];   /* the squares whose row number has bit k set (rows 0 .. 11) */
	uint64_t coneb[2][64];
} vboard;
static vboard boards[NBOARDS];
static pthread_once_t boards_once = PTHREAD_ONCE_INIT;
/* set once boards_init has run: the hot paths test it before pthread_once's call */
static _Atomic int boards_ready;

static void boards_init(void)
{
	for (int i = 0; i < NBOARDS && variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		vboard *b = &boards[i];
		for (int q = 1; q <= variant_squares(v); q++) {
			int r, c;
			variant_square_rc(v, q, &r, &c);
			b->row[q] = (uint8_t)r;
			b->col[q] = (uint8_t)c;
			b->at[r][c] = (uint8_t)q;
		}
		b->diag_up = b->at[v->rows - 1][0] != 0;
		for (int q = 1; q <= variant_squares(v) && variant_squares(v) <= 64; q++)
			for (int side = 0; side < 2; side++) {
				int step = side ? 1 : -1, end = side ? v->rows : -1, c = b->col[q];
				for (int rr = b->row[q] + step, d = 1; rr != end; rr += step, d++)
					for (int cc = c - d < 0 ? 0 : c - d; cc <= c + d && cc < v->cols; cc++)
						if (b->at[rr][cc])
							b->cone[side][q] |= 1ull << (b->at[rr][cc] - 1);
			}
		b->start_pieces = variant_start_pieces(v);
		b->bits = vbits_supported(v);
		int last = v->rows - 1, mid_lo = v->cols / 2 - 2, mid_hi = v->cols / 2 + 1, half = v->cols / 2;
		for (int q = 1; b->bits && q <= variant_squares(v); q++) {
			int r = b->row[q], c = b->col[q], k = vbits_bit(v, q);
			uint64_t m = 1ull << k;
			b->rowb[r] |= m;
			for (int k2 = 0; k2 < 4; k2++)
				if (r >> k2 & 1)
					b->rowbit[k2] |= m;
			if (c >= mid_lo && c <= mid_hi)
				b->centreb |= m;
			if (c == 0 || c == v->cols - 1)
				b->edgeb |= m;
			if (c >= half)
				b->rightb |= m;
			else
				b->leftb |= m;
			if (b->diag_up ? r + c == v->cols - 1 : r == c)
				b->diagb |= m;
			if (last - r >= v->rows / 2 - 1)
				b->farb[0] |= m;
			if (r >= v->rows / 2 - 1)
				b->farb[1] |= m;
			for (int side = 0; side < 2; side++)
				for (uint64_t cq = b->cone[side][q]; cq; cq &= cq - 1)
					b->coneb[side][k] |= 1ull << vbits_bit(v, __builtin_ctzll(cq) + 1);
		}
	}
}

static void boards_init_once(void)
{
	boards_init();
	boards_ready = 1;
}

static const vboard *board_of(const pk_variant *v)
{
	if (!boards_ready)
		pthread_once(&boards_once, boards_init_once);
	return &boards[v - variant_at(0)];
}

/* Sums over the board from White's view (White less Black), the terms of vsearch.h. */
typedef struct {
	int men, kings, advance, back, centre, balance, runaway, edge, outpost, kdiag, backed;
	int kfirst;             /* White has a king less Black has one */
	int pieces;
} vterms;

static inline bool is_man(int pc) { return pc == VP_WMAN || pc == VP_BMAN; }

/* Whether a man of the given piece is at (r, c). */
static inline bool man_at(const pk_vpos *p, const vboard *b, int r, int c, int piece)
{
	if (r < 0 || r >= p->v->rows || c < 0 || c >= p->v->cols)
		return false;
	int q = b->at[r][c];
	return q && p->sq[q] == piece;
}

/* Whether the man of side white on q has a path no enemy man can meet: no enemy man in
 * the cone widening a column a row towards its crowning row (on boards of more than 64
 * squares; the others have the cones as bit masks). */
static bool free_path(const pk_vpos *p, const vboard *b, int q, bool white)
{
	const pk_variant *v = p->v;
	int enemy = white ? VP_BMAN : VP_WMAN, step = white ? -1 : 1, end = white ? -1 : v->rows;
	int r = b->row[q], c = b->col[q];
	for (int rr = r + step, d = 1; rr != end; rr += step, d++)
		for (int cc = c - d < 0 ? 0 : c - d; cc <= c + d && cc < v->cols; cc++) {
			int s = b->at[rr][cc];
			if (s && p->sq[s] == enemy)
				return false;
		}
	return true;
}

/* The terms of p; the runaways only when 'runaways', the backed men and outposts only
 * when 'backing' (the costly ones: an evaluation whose weights for them are 0 skips them). */
static void terms(const pk_vpos *p, const vboard *b, bool runaways, bool backing, vterms *t)
{
	const pk_variant *v = p->v;
	int n = variant_squares(v);
	int last = v->rows - 1, mid_lo = v->cols / 2 - 2, mid_hi = v->cols / 2 + 1, half = v->cols / 2;
	int wing[2][2] = { { 0, 0 }, { 0, 0 } }, kings[2] = { 0, 0 };
	uint64_t men[2] = { 0, 0 };   /* by side (0 White), bit q - 1: up to 64 squares */
	memset(t, 0, sizeof *t);
	for (int q = 1; q <= n; q++) {
		int pc = p->sq[q];
		if (!pc)
			continue;
		t->pieces++;
		int r = b->row[q], c = b->col[q];
		if (!is_man(pc)) {
			int sign = pc == VP_WKING ? 1 : -1;
			kings[pc == VP_BKING]++;
			t->kings += sign;
			if (b->diag_up ? r + c == v->cols - 1 : r == c)
				t->kdiag += sign;
			continue;
		}
		bool white = pc == VP_WMAN;
		int sign = white ? 1 : -1;
		int adv = white ? last - r : r;   /* rows from its own back row */
		t->men += sign;
		t->advance += sign * adv;
		if (q <= 64)
			men[!white] |= 1ull << (q - 1);
		wing[!white][c >= half]++;
		if (adv == 0)
			t->back += sign;
		if (c >= mid_lo && c <= mid_hi)
			t->centre += sign;
		if (c == 0 || c == v->cols - 1)
			t->edge += sign;
		if (backing && adv > 0) {
			int behind = white ? r + 1 : r - 1;
			bool backed = man_at(p, b, behind, c - 1, pc) || man_at(p, b, behind, c + 1, pc);
			t->backed += backed ? sign : 0;
			if (backed && adv == v->rows / 2 && c >= 2 && c <= v->cols - 3)
				t->outpost += sign;
		}
	}
	t->balance = abs(wing[1][0] - wing[1][1]) - abs(wing[0][0] - wing[0][1]);
	t->kfirst = (kings[0] > 0) - (kings[1] > 0);
	/* the runaways, where the other side has no king to stop them */
	for (int q = 1; q <= n && runaways; q++) {
		int pc = p->sq[q];
		if (!is_man(pc))
			continue;
		bool white = pc == VP_WMAN;
		if (kings[white] || (white ? last - b->row[q] : b->row[q]) < v->rows / 2 - 1)
			continue;
		if (n <= 64 ? !(b->cone[!white][q] & men[white]) : free_path(p, b, q, white))
			t->runaway += white ? 1 : -1;
	}
}

static inline int pc64(uint64_t x) { return __builtin_popcountll(x); }

/* terms() from the bitboards (boards with b->bits; not the backed men nor outposts): the
 * same sums by counting masks. */
static void terms_bits(const pk_vpos *p, const pk_vbits *x, const vboard *b, bool runaways, vterms *t)
{
	const pk_variant *v = p->v;
	int last = v->rows - 1;
	uint64_t W = x->men[PK_WHITE], B = x->men[PK_BLACK], WK = x->kings[PK_WHITE], BK = x->kings[PK_BLACK];
	memset(t, 0, sizeof *t);
	t->pieces = pc64(W | B | WK | BK);
	t->men = pc64(W) - pc64(B);
	t->kings = pc64(WK) - pc64(BK);
	t->kfirst = (WK != 0) - (BK != 0);
	/* each man's rows from its own first row, summed: White's from the last row,
	 * Black's from row 0; the rows summed bit by bit of their numbers */
	int wrows = 0, brows = 0;
	for (int k = 0; k < 4; k++) {
		wrows += pc64(W & b->rowbit[k]) << k;
		brows += pc64(B & b->rowbit[k]) << k;
	}
	t->advance = last * pc64(W) - wrows - brows;
	t->back = pc64(W & b->rowb[last]) - pc64(B & b->rowb[0]);
	t->centre = pc64(W & b->centreb) - pc64(B & b->centreb);
	t->edge = pc64(W & b->edgeb) - pc64(B & b->edgeb);
	t->kdiag = pc64(WK & b->diagb) - pc64(BK & b->diagb);
	t->balance = abs(pc64(B & b->leftb) - pc64(B & b->rightb)) - abs(pc64(W & b->leftb) - pc64(W & b->rightb));
	if (!runaways)
		return;
	if (!BK)
		for (uint64_t m = W & b->farb[0]; m; m &= m - 1)
			t->runaway += !(b->coneb[0][__builtin_ctzll(m)] & B);
	if (!WK)
		for (uint64_t m = B & b->farb[1]; m; m &= m - 1)
			t->runaway -= !(b->coneb[1][__builtin_ctzll(m)] & W);
}

/* The share of the pieces gone, times 'x': x * (start - now) / start. */
static inline int gone(const vboard *b, const vterms *t, int x)
{
	return x * (b->start_pieces - t->pieces) / b->start_pieces;
}

/* Material and position from White's view, without mobility; from the bitboards x
 * when given (and the board has them, and no weight asks for the backed men). */
static int eval_static(const pk_vpos *p, const pk_vbits *x, const pk_vweights *w, const vboard *b)
{
	vterms t;
	const int *k = w->w;
	bool backing = k[VW_BACKED] != 0 || k[VW_OUTPOST] != 0;
	if (x && b->bits && !backing)
		terms_bits(p, x, b, k[VW_RUNAWAY] != 0, &t);
	else
		terms(p, b, k[VW_RUNAWAY] != 0, backing, &t);
	int last = p->v->rows - 1;
	int s = 100 * t.men + k[VW_KING] * t.kings + k[VW_ADVANCE] * t.advance * 7 / last +
		k[VW_BACK_RANK] * t.back + k[VW_CENTRE] * t.centre + k[VW_BALANCE] * t.balance +
		k[VW_RUNAWAY] * t.runaway + k[VW_EDGE] * t.edge + k[VW_OUTPOST] * t.outpost +
		k[VW_KING_DIAG] * t.kdiag + k[VW_BACKED] * t.backed + k[VW_KING_FIRST] * t.kfirst;
	if (k[VW_ADVANCE_LATE])
		s += gone(b, &t, k[VW_ADVANCE_LATE] * t.advance * 7) / last;
	if (k[VW_TRADE])
		s += gone(b, &t, k[VW_TRADE] * (t.men + t.kings));
	if (k[VW_SAFE] && b->bits) {
		pk_vbits own;
		if (!x)
			vbits_of(p, &own);
		const pk_vbits *bb = x ? x : &own;
		s += k[VW_SAFE] * (vbits_safe_men_moves(p->v, bb, PK_WHITE) - vbits_safe_men_moves(p->v, bb, PK_BLACK));
	}
	return s;
}

/* Legal moves of the side to move less those of the other side. */
static int mobility(const pk_vpos *p)
{
	pk_vpos o = *p;
	o.stm = !p->stm;
	return vcount(p) - vcount(&o);
}

int veval(const pk_vpos *p, const pk_vweights *w) { return veval_mobility(p, w, mobility(p)); }

int veval_mobility(const pk_vpos *p, const pk_vweights *w, int mob) { return veval_bits(p, NULL, w, mob); }

/* v (the side to move's score) cut where the side ahead has drawish material against a
 * king of the other side (VW_DRAWISH). */
static int drawish(const pk_vpos *p, const pk_vbits *bits, int v)
{
	int c[2][2] = { { 0, 0 }, { 0, 0 } };   /* [PK_BLACK, PK_WHITE][men, kings] */
	if (bits)
		for (int s = 0; s < 2; s++) {
			c[s][0] = __builtin_popcountll(bits->men[s]);
			c[s][1] = __builtin_popcountll(bits->kings[s]);
		}
	else
		for (int q = 1; q <= variant_squares(p->v); q++) {
			int pc = p->sq[q];
			if (pc != VP_EMPTY)
				c[pc == VP_WMAN || pc == VP_WKING ? PK_WHITE : PK_BLACK][pc == VP_WKING || pc == VP_BKING]++;
		}
	int ahead = v > 0 ? p->stm : !p->stm, other = !ahead;
	/* against men alone no cut; against a lone king the search's FMJD endings do it */
	if (v == 0 || c[other][1] == 0 || c[other][0] + c[other][1] == 1)
		return v;
	if (c[ahead][0] + c[ahead][1] <= 3)
		return v / 8;
	if (c[ahead][1] == c[other][1] && abs(c[ahead][0] - c[other][0]) <= 1)
		return v / 2;
	return v;
}

int vnet_inputs(const pk_vpos *p, int in[50])
{
	uint64_t white = 0, black = 0, kings = 0;
	for (int q = 1; q <= 50; q++) {
		int pc = p->sq[q];
		uint64_t b = 1ull << (q - 1);
		if (pc == VP_WMAN || pc == VP_WKING)
			white |= b;
		else if (pc == VP_BMAN || pc == VP_BKING)
			black |= b;
		if (pc == VP_WKING || pc == VP_BKING)
			kings |= b;
	}
	return net_vinputs(p->stm, white, black, kings, in);
}

/* The network's value of a 10x10 position (its pieces from bits when given). */
static int vnet_eval(const pk_net *n, const pk_vpos *p, const pk_vbits *bits)
{
	int in[50], k;
	if (bits)
		k = net_vinputs(p->stm, vbits_squares(p->v, bits->men[PK_WHITE] | bits->kings[PK_WHITE]),
				vbits_squares(p->v, bits->men[PK_BLACK] | bits->kings[PK_BLACK]),
				vbits_squares(p->v, bits->kings[PK_WHITE] | bits->kings[PK_BLACK]), in);
	else
		k = vnet_inputs(p, in);
	return net_eval_inputs(n, in, k);
}

int veval_bits(const pk_vpos *p, const pk_vbits *bits, const pk_vweights *w, int mob)
{
	return veval_bits_net(p, bits, w, mob, VEVAL_NO_NET);
}

int veval_bits_net(const pk_vpos *p, const pk_vbits *bits, const pk_vweights *w, int mob, int net)
{
	int s = eval_static(p, bits, w, board_of(p->v));
	int v = (p->stm == PK_WHITE ? s : -s) + w->w[VW_MOBILITY] * mob;
	if (w->net && p->v->rows == 10 && variant_squares(p->v) == 50)
		v += net != VEVAL_NO_NET ? net : vnet_eval(w->net, p, board_of(p->v)->bits ? bits : NULL);
	if (w->pat) {
		if (bits && board_of(p->v)->bits && p->v->rows == 10) {
			uint64_t wm = bits->men[PK_WHITE], bm = bits->men[PK_BLACK];
			uint64_t wk = bits->kings[PK_WHITE], bk = bits->kings[PK_BLACK];
			int pieces = __builtin_popcountll(wm | bm | wk | bk), mat = 0;
			if (w->pat->material) {
				int c[2][2] = { { __builtin_popcountll(wm), __builtin_popcountll(wk) },
						{ __builtin_popcountll(bm), __builtin_popcountll(bk) } };
				int me = p->stm == PK_WHITE ? 0 : 1;
				mat = vpattern_material_index(c[me][0], c[me][1], c[!me][0], c[!me][1]);
			}
			int togo = 0;
			if (w->pat->tempo) {
				const vboard *b = board_of(p->v);
				for (int r = 0; r < 10; r++)
					togo += pc64(wm & b->rowb[r]) * r + pc64(bm & b->rowb[r]) * (9 - r);
			}
			if (w->pat->men_only)
				wk = bk = 0;
			v += vpattern_eval_masks_step(w->pat, p->stm, wm | wk, bm | bk,
						      vpattern_step(w->pat->tempo, pieces, togo), mat);
		} else
			v += vpattern_eval(w->pat, p);
	}
	if (w->w[VW_DRAWISH])
		v = drawish(p, board_of(p->v)->bits ? bits : NULL, v);
	return v;
}

void vfeatures(const pk_vpos *p, int *men, double f[VW_NUM])
{
	const vboard *b = board_of(p->v);
	vterms t;
	terms(p, b, true, true, &t);
	int sign = p->stm == PK_WHITE ? 1 : -1;
	double rows = p->v->rows - 1, share = (double)(b->start_pieces - t.pieces) / b->start_pieces;
	*men = sign * t.men;
	f[VW_KING] = sign * t.kings;
	f[VW_ADVANCE] = sign * t.advance * 7.0 / rows;
	f[VW_BACK_RANK] = sign * t.back;
	f[VW_CENTRE] = sign * t.centre;
	f[VW_MOBILITY] = mobility(p);
	f[VW_ADVANCE_LATE] = f[VW_ADVANCE] * share;
	f[VW_BALANCE] = sign * t.balance;
	f[VW_RUNAWAY] = sign * t.runaway;
	f[VW_EDGE] = sign * t.edge;
	f[VW_OUTPOST] = sign * t.outpost;
	f[VW_KING_DIAG] = sign * t.kdiag;
	f[VW_BACKED] = sign * t.backed;
	f[VW_TRADE] = sign * (t.men + t.kings) * share;
	f[VW_SAFE] = 0;
	f[VW_DRAWISH] = 0;
	f[VW_KING_FIRST] = sign * t.kfirst;
	if (b->bits) {
		pk_vbits x;
		vbits_of(p, &x);
		f[VW_SAFE] = sign * (vbits_safe_men_moves(p->v, &x, PK_WHITE) - vbits_safe_men_moves(p->v, &x, PK_BLACK));
	}
}

pk_vengine *vengine_new(size_t hash_mb)
{
	pk_vengine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (!(e->e = mb_engine_new(hash_mb ? hash_mb : 1))) {
		free(e);
		return NULL;
	}
	e->set_f = features_all;
	return e;
}

void vengine_free(pk_vengine *e)
{
	if (!e)
		return;
	mb_engine_free(e->e);
	free(e->tables_dir);
	free(e);
}

void vengine_set_weights(pk_vengine *e, const pk_vweights *w)
{
	e->own_weights = w != NULL;
	if (w)
		e->set_w = *w;
}

void vengine_set_features(pk_vengine *e, const pk_features *f) { e->set_f = *f; }

void vengine_features(const pk_vengine *e, const pk_variant *v, pk_features *f)
{
	*f = e->set_f;
	features_for_variant(f, v->gametype);
}

int vengine_set_threads(pk_vengine *e, int n) { return mb_engine_set_threads(e->e, n); }

void vengine_new_game(pk_vengine *e) { mb_engine_new_game(e->e); }

int vengine_set_tables_dir(pk_vengine *e, const char *dir)
{
	char *d = dir ? strdup(dir) : NULL;
	if (dir && !d)
		return -1;
	free(e->tables_dir);
	e->tables_dir = d;
	e->tables_chosen = true;
	return 0;
}

int vengine_search(pk_vengine *e, const pk_vpos *root, const pk_history *hist, const pk_limits *lim,
		   volatile sig_atomic_t *stop, void (*cb)(void *ctx, const pk_viteration *it), void *ctx,
		   pk_vresult *out)
{
	pk_vweights w;
	if (e->own_weights)
		w = e->set_w;
	else
		vweights_for(root->v, &w);
	mb_engine_set_weights(e->e, &w);
	pk_features f;   /* with the variant's own defaults */
	vengine_features(e, root->v, &f);
	mb_engine_set_features(e->e, &f);
	e->e->v = root->v;
	int dp = vdraw_kings_only_plies(root->v);
	e->e->draw_plies = dp > 0 ? dp : 1 << 20;   /* 0: the variant has no such count */
	e->e->tables = e->tables_chosen ? vegdb_shared_in(e->tables_dir, root->v) : vegdb_shared(root->v);
	e->e->table_pieces = vegdb_pieces(e->e->tables);
	e->e->exclude = e->exclude;
	e->e->nexclude = e->nexclude;
	mb_pos r;
	mb_pos_of(root, &r);
	mb_pos_use_net(&r, w.net);
	pk_history h = { NULL, 0, 0, 0 };
	if (hist)
		h = *hist;
	e->e->ending_class = vdraw_ending_class(root);
	e->e->ending = e->e->ending_class ? h.ending : 0;
	e->e->endings = root->v->gametype == 20 || root->v->gametype == 26 || root->v->gametype == 27 ||
			root->v->gametype == 23 || root->v->gametype == 40;   /* vdraw_ending_next's */
	e->e->root_pieces = vpos_pieces(root);
	pk_limits l = *lim;
	l.exclude = NULL;
	l.nexclude = 0;
	int rc = mb_engine_search(e->e, &r, &h, &l, stop, cb, ctx, out);
	e->nexclude = 0;
	e->e->nexclude = 0;
	return rc;
}

void vengine_exclude(pk_vengine *e, const pk_vmove *m, int n)
{
	if (n > VAR_MAX_MOVES)
		n = VAR_MAX_MOVES;
	memcpy(e->exclude, m, sizeof *m * (size_t)n);
	e->nexclude = n;
}
