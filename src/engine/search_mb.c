/* The search of every variant on its own board (rules/variant.h's mailbox positions):
 * the node and the deepening of the English search, instanced over mb_pos. Only the
 * English search probes endgame databases. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "base/pool.h"
#include "engine/search_mb.h"
#include "egdb/egdb.h"
#include "egdb/vegdb.h"

void mb_pos_of(const pk_vpos *p, mb_pos *out)
{
	out->p = *p;
	out->key = vpos_state_key(p);
	out->has_bits = vbits_supported(p->v);
	out->has_gen = vbits_gen_supported(p->v);
	out->net = NULL;
	if (out->has_bits) {
		vbits_of(p, &out->b);
		out->cap = vbits_has_capture(p->v, &out->b, p->stm);
	}
}

/* The sums of a position whose pieces (the bitboards' bits of each kind, a kind's pieces
 * of White then Black: men, kings) are to[], from those of one whose pieces are from[]:
 * into acc[] (both views) from src[] (may be acc). */
static void mb_acc_delta(const pk_net *n, const pk_variant *v, const uint64_t from[4], const uint64_t to[4],
			 const pk_net_acc src[2], pk_net_acc acc[2])
{
	int on[2][4 * 50], off[2][4 * 50], non = 0, noff = 0;
	const uint8_t *square_of = vbits_square_of(v);
	for (int k = 0; k < 4; k++) {
		uint64_t gone = from[k] & ~to[k], came = to[k] & ~from[k];
		/* kind k: White's men, White's kings, Black's men, Black's kings; from White's
		 * view its planes 0, 1, 2, 3 on square s - 1; from Black's 2, 3, 0, 1 on 50 - s */
		int wplane = k, bplane = (k + 2) & 3;
		for (; came; came &= came - 1, non++) {
			int sq = square_of[__builtin_ctzll(came)] - 1;
			on[PK_WHITE][non] = wplane * 50 + sq;
			on[PK_BLACK][non] = bplane * 50 + 49 - sq;
		}
		for (; gone; gone &= gone - 1, noff++) {
			int sq = square_of[__builtin_ctzll(gone)] - 1;
			off[PK_WHITE][noff] = wplane * 50 + sq;
			off[PK_BLACK][noff] = bplane * 50 + 49 - sq;
		}
	}
	for (int s = 0; s < 2; s++)
		net_acc_update(n, &src[s], &acc[s], on[s], non, off[s], noff);
}

static inline void mb_kinds(const pk_vbits *b, uint64_t k[4])
{
	k[0] = b->men[PK_WHITE];
	k[1] = b->kings[PK_WHITE];
	k[2] = b->men[PK_BLACK];
	k[3] = b->kings[PK_BLACK];
}

void mb_pos_use_net(mb_pos *x, const pk_net *n)
{
	x->net = NULL;
	if (!n || !x->has_bits || x->p.v->rows != 10 || variant_squares(x->p.v) != 50)
		return;
	for (int s = 0; s < 2; s++)
		for (int j = 0; j < NET_H1; j++)
			x->acc[s].v[j] = n->b1[j];
	static const uint64_t none[4];
	uint64_t to[4];
	mb_kinds(&x->b, to);
	mb_acc_delta(n, x->p.v, none, to, x->acc, x->acc);
	x->net = n;
}

static inline void mb_make(const mb_pos *p, const pk_vmove *m, mb_pos *c)
{
	vmake(&p->p, m, &c->p);
	c->key = vpos_key_after(&p->p, m, &c->p, p->key);
	c->has_bits = p->has_bits;
	c->has_gen = p->has_gen;
	c->net = p->net;
	if (p->has_bits) {
		vbits_make(&p->b, &p->p, m, &c->p, &c->b);
		c->cap = vbits_has_capture(c->p.v, &c->b, c->p.stm);
	}
	if (p->net) {   /* the sums of the inputs the move changed */
		uint64_t from[4], to[4];
		mb_kinds(&p->b, from);
		mb_kinds(&c->b, to);
		mb_acc_delta(p->net, c->p.v, from, to, p->acc, c->acc);
	}
}

void mb_pos_after(const mb_pos *p, const pk_vmove *m, mb_pos *c)
{
	mb_make(p, m, c);
}

/* The key after m, without the move made (the king-move counts of Frisian need it). */
static inline uint64_t mb_child_key(const mb_pos *p, const pk_vmove *m)
{
	if (!p->p.v->king_moves)
		return vpos_key_of_move(&p->p, m, p->key);
	mb_pos c;
	mb_make(p, m, &c);
	return c.key;
}

/* The same position with the other side to move (its key not followed). */
static inline void mb_flip(mb_pos *x)
{
	x->p.stm = !x->p.stm;
	if (x->has_bits)
		x->cap = vbits_has_capture(x->p.v, &x->b, x->p.stm);
}

/* Whether the side to move must capture. */
static inline bool mb_has_capture(const mb_pos *x)
{
	return x->has_bits ? x->cap : vhas_capture(&x->p);
}

/* The moves of side (the side to move, or the other one) into *count, cap whether it
 * must capture; false for the other side's captures, which only the mailbox counts. */
static inline bool mb_count_bits(const mb_pos *x, int side, bool cap, int *count)
{
	if (!cap)
		*count = vbits_quiet_count(x->p.v, &x->b, side);
	else if (x->has_gen)
		*count = vbits_count(x->p.v, &x->b, side);
	else if (side == x->p.stm)
		*count = vcount(&x->p);
	else
		return false;
	return true;
}

static inline int mb_count(const mb_pos *x)
{
	int n;
	if (!x->has_bits)
		return vcount(&x->p);
	mb_count_bits(x, x->p.stm, x->cap, &n);
	return n;
}

static inline int mb_gen(const mb_pos *x, pk_vmovelist *l)
{
	if (x->has_gen)   /* the whole list on the bitboards: vgen's, in its order */
		return vbits_gen_known(x->p.v, &x->b, x->p.stm, x->cap, l);
	if (x->has_bits && !x->cap)   /* from the squares of the side's pieces */
		return vgen_quiet_from(&x->p, vbits_squares(x->p.v, x->b.men[x->p.stm] | x->b.kings[x->p.stm]), l);
	if (x->has_bits)   /* the captures looked for from the pieces that can start one */
		return vgen_from(&x->p, vbits_capturers(x->p.v, &x->b, x->p.stm), l);
	return vgen(&x->p, l);
}

/* The evaluation, with the mobility from the bitboards when there are. */
/* International's endings that FMJD's rules limit (rules/vdraw.c): a lone king against
 * two pieces or one (a king among them) is drawn after 5 moves each, against three after
 * 16; the evaluation's material edge there is no win. 16: the first, drawn unless a
 * capture decides it at once (which the search sees); 8: three against a lone king
 * holding the long diagonal (5-46), a known draw; 1: any other position. */
static const int long_diagonal[] = { 5, 10, 14, 19, 23, 28, 32, 37, 41, 46 };

static inline int mb_fmjd_divisor(const mb_pos *x)
{
	const pk_vbits *b = &x->b;
	for (int lone = 0; lone < 2; lone++) {
		if (b->men[lone] || __builtin_popcountll(b->kings[lone]) != 1)
			continue;
		int strong = !lone, n = __builtin_popcountll(b->men[strong] | b->kings[strong]);
		if (!b->kings[strong] || n > 3)
			return 1;
		if (n <= 2)
			return 16;
		int king = lone == PK_WHITE ? VP_WKING : VP_BKING;
		for (size_t i = 0; i < sizeof long_diagonal / sizeof *long_diagonal; i++)
			if (x->p.sq[long_diagonal[i]] == king)
				return 8;
		return 1;
	}
	return 1;
}

static inline int mb_eval(const mb_pos *x, const pk_vweights *w)
{
	if (!x->has_bits)
		return veval(&x->p, w);
	int netv = x->net ? net_eval_acc(x->net, &x->acc[x->p.stm]) : VEVAL_NO_NET;
	int mob = mb_count(x), other = !x->p.stm, omob;
	if (!mb_count_bits(x, other, vbits_has_capture(x->p.v, &x->b, other), &omob)) {
		mb_pos o = *x;   /* the mailbox counts a capture of the side to move only */
		mb_flip(&o);
		omob = mb_count(&o);
	}
	int v = veval_bits_net(&x->p, &x->b, w, mob - omob, netv);
	if (x->p.v->gametype == 20 && __builtin_popcountll(x->b.men[0] | x->b.kings[0] | x->b.men[1] | x->b.kings[1]) <= 4)
		v /= mb_fmjd_divisor(x);
	return v;
}

static inline int mb_pieces(const mb_pos *x)
{
	if (x->has_bits)
		return __builtin_popcountll(x->b.men[0] | x->b.men[1] | x->b.kings[0] | x->b.kings[1]);
	return vpos_pieces(&x->p);
}

static inline bool mb_has_kings(const mb_pos *x)
{
	if (x->has_bits)
		return (x->b.kings[0] | x->b.kings[1]) != 0;
	for (int s = 1, n = variant_squares(x->p.v); s <= n; s++)
		if (x->p.sq[s] == VP_WKING || x->p.sq[s] == VP_BKING)
			return true;
	return false;
}

static inline bool mb_is_king(int piece) { return piece == VP_WKING || piece == VP_BKING; }

static inline bool mb_reversible(const pk_vpos *p, const pk_vmove *m)
{
	return m->ncap == 0 && mb_is_king(p->sq[m->from]);
}

/* A move into the mover's last two rows (as the English search has it). */
static inline bool mb_crowning(const pk_vpos *p, const pk_vmove *m)
{
	int row, col;
	variant_square_rc(p->v, m->to, &row, &col);
	return p->stm == PK_WHITE ? row <= 1 : row >= p->v->rows - 2;
}

static inline bool mb_same(const pk_vmove *a, const pk_vmove *b)
{
	return a->from == b->from && a->to == b->to && a->ncap == b->ncap &&
	       (a->ncap == 0 || vmove_same(a, b));
}

#define N_POS mb_pos
#define N_MOVELIST pk_vmovelist
#define N_ENGINE mb_engine
#define N_NAME(x) mb_##x
#define N_GEN(x_, l_) mb_gen(x_, l_)
#define N_MAKE(x_, m_, c_) mb_make(x_, m_, c_)
#define N_KEY(x_) ((x_)->key)
#define N_CHILD_KEY(x_, m_) mb_child_key(x_, m_)
#define N_HAS_CAPTURE(x_) mb_has_capture(x_)
#define N_COUNT(x_) mb_count(x_)
#define N_IS_CAPTURE(m_) ((m_)->ncap > 0)
#define N_REVERSIBLE(x_, m_) mb_reversible(&(x_)->p, m_)
#define N_SAME_EFFECT(a_, b_) mb_same(a_, b_)
#define N_EQUAL(a_, b_) vmove_same(a_, b_)
#define N_NO_MOVE(m_) ((m_)->from == 0)
#define N_FROM(m_) ((m_)->from)
#define N_TO(m_) ((m_)->to)
#define N_CAPTURE_VALUE(x_, m_) (16 * (m_)->ncap + (m_)->kings)
#define N_CROWNING(x_, m_) mb_crowning(&(x_)->p, m_)
#define N_PIECES(x_) mb_pieces(x_)
#define N_HAS_KINGS(x_) mb_has_kings(x_)
#define N_START_PIECES(x_) variant_start_pieces((x_)->p.v)
#define N_EVAL(x_, w_) mb_eval(x_, w_)
#define N_DRAW_PLIES(w_) ((w_)->e->draw_plies)
#define N_MAX_MOVES VAR_MAX_MOVES
#define N_FLIP(q_) mb_flip(q_)
#define N_ITERATION_CB mb_iteration_cb
#define N_RESULT pk_vresult
#define N_PV_MAX VPV_MAX
/* the root moves left out are set by vengine_exclude, not by the limits (pk_move) */
#define N_SET_EXCLUDE(e, lim) ((void)(lim))

/* The pieces of x, from the bitboards where there are. */
static inline int mb_count_pieces(const mb_pos *x)
{
	if (!x->has_bits)
		return vpos_pieces(&x->p);
	return __builtin_popcountll(x->b.men[0] | x->b.kings[0]) + __builtin_popcountll(x->b.men[1] | x->b.kings[1]);
}

/* Which limited ending x's material is (vdraw_ending_class), counted on the bitboards
 * when there are (the mailbox's count reads every square, at every node of an ending). */
static inline int mb_ending_class(const mb_pos *x)
{
	if (!x->has_bits)
		return vdraw_ending_class(&x->p);
	const pk_vbits *b = &x->b;
	int n[2], k[2];
	for (int s = 0; s < 2; s++) {
		n[s] = __builtin_popcountll(b->men[s] | b->kings[s]);
		k[s] = __builtin_popcountll(b->kings[s]);
	}
	return vdraw_ending_class_of(x->p.v, n, k);
}

/* The variant's limited endings (vdraw_ending_plies) and endgame databases. The count of
 * an ending is kept along the line searched, a ply at a time as the game keeps it
 * (vdraw_ending_next): the root's from the game's history, one reached inside the search
 * from where it is reached. A position whose count has run out is a draw. A position the
 * databases hold scores its exact value, a win or a loss by its distance, when its
 * ending's count leaves time for it; when it does not, the distance is no answer (it
 * counts the plies to the end of the game, but a capture on the way, a king given up to
 * force the lone king to take it, begins another ending with a count of its own, so that
 * a win too long for the count may still be one): the position is searched on, until
 * the count runs out or the databases' value fits what is left. */
static bool mb_table_probe(const mb_worker *w, const mb_pos *x, int ply, int *score)
{
	mb_engine *e = w->e;
	if (!e->endings && !e->tables)
		return false;
	int pieces = mb_count_pieces(x), cls = 0, count = 0;
	if (e->endings) {
		mb_ending_at *at = e->at[w->id];
		int pc = ply > 1 ? at[ply - 1].cls : e->ending_class;
		int pn = ply > 1 ? at[ply - 1].count : e->ending;
		int pp = ply > 1 ? at[ply - 1].pieces : e->root_pieces;
		if (pieces <= 4)
			cls = mb_ending_class(x);
		count = vdraw_ending_next(e->v, pc, pn, cls, pieces < pp);
		if (ply <= MAX_PLY)
			at[ply] = (mb_ending_at){ (short)cls, (short)count, (short)pieces };
		if (cls && count >= vdraw_class_plies(e->v, cls)) {
			*score = 0;
			return true;
		}
	}
	if (!e->tables || pieces > e->table_pieces)
		return false;
	int value, plies;
	if (!vegdb_probe(e->tables, &x->p, &value, &plies))
		return false;
	if (value != EGDB_DRAW && cls) {
		int limit = vdraw_class_plies(e->v, cls);
		if (limit && plies > limit - count)
			return false;
	}
	*score = value == EGDB_DRAW ? 0 : value == EGDB_WIN ? SCORE_WIN - ply - plies : -SCORE_WIN + ply + plies;
	return true;
}
#define N_TABLE_PROBE(w_, x_, ply_, s_) mb_table_probe(w_, x_, ply_, s_)

/* The table's key of a position in a limited ending: its count is part of it, since the
 * same position is won with plies of the count left and drawn without (a game's next
 * search, or another line of this one, reaches it with another count). The count is
 * mb_table_probe's of this ply (the root's from the game). */
static inline uint64_t mb_tt_key(const mb_worker *w, const mb_pos *x, int ply)
{
	const mb_engine *e = w->e;
	if (!e->endings || ply > MAX_PLY)
		return x->key;
	int cls = ply > 0 ? e->at[w->id][ply].cls : e->ending_class;
	int count = ply > 0 ? e->at[w->id][ply].count : e->ending;
	return cls ? x->key ^ (0x9E3779B97F4A7C15ull * (uint64_t)(count + 1 + (cls << 10))) : x->key;
}
#define N_TT_KEY(w_, x_, ply_) mb_tt_key(w_, x_, ply_)
#include "engine/node.inc.c"
#include "engine/deepen.inc.c"

#include "engine/life.inc.c"

mb_engine *mb_engine_new(size_t hash_mb)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, mb_se_lmr_init);
	mb_engine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (tt_init(&e->tt, hash_mb ? hash_mb : 1) < 0) {
		free(e);
		return NULL;
	}
	e->f = features_all;
	e->nthreads = 1;
	e->draw_plies = DRAW_PLIES;
	pthread_mutex_init(&e->lock, NULL);
	e->wk[0] = worker_new(e, 0);
	if (!e->wk[0]) {
		mb_engine_free(e);
		return NULL;
	}
	return e;
}

void mb_engine_set_weights(mb_engine *e, const pk_vweights *w) { e->w = *w; }
