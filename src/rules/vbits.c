/* Bitboards of the 8x8 and 10x10 diagonal variants: captures and quiet-move counts
 * (rules/vbits.h). Checked against rules/variant.c's walk in tests/test_variant.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "rules/pos.h"
#include "rules/vbits.h"

#define NTAB 32
static struct {
	uint8_t bit[VAR_MAX_SQ + 1];
	uint8_t sq_of[64];     /* the square of each bit (0: none) */
	uint64_t valid;
	int h;                 /* playing squares a row: a step down-left adds h, down-right h + 1 */
	uint64_t sq_byte[7][256];   /* the squares (bit s - 1) of each byte's bits */
	uint64_t ray[4][64];   /* the squares along each direction from each bit's, to the edge */
} tab[NTAB];
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* set once init has run: the hot paths test it before pthread_once's call */
static _Atomic int ready;

bool vbits_supported(const pk_variant *v)
{
	return !v->orthogonal && !v->capture_straight && !v->remove_at_once && !v->king_moves &&
	       v->rows == v->cols && (v->rows == 8 || v->rows == 10) && v->rule != VRULE_FRISIAN;
}

static void build_rays(int i);

static void init(void)
{
	for (int i = 0; i < NTAB && variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!vbits_supported(v))
			continue;
		tab[i].h = v->cols / 2;
		for (int s = 1; s <= variant_squares(v); s++) {
			int r, c;
			variant_square_rc(v, s, &r, &c);
			tab[i].bit[s] = (uint8_t)((r * (v->cols + 1) + c) / 2);
			tab[i].sq_of[tab[i].bit[s]] = (uint8_t)s;
			tab[i].valid |= 1ull << tab[i].bit[s];
		}
		for (int k = 0; k < 7; k++)
			for (int x = 0; x < 256; x++)
				for (int j = 0; j < 8; j++)
					if ((x >> j & 1) && tab[i].sq_of[8 * k + j])
						tab[i].sq_byte[k][x] |= 1ull << (tab[i].sq_of[8 * k + j] - 1);
		build_rays(i);
	}
}

static void init_once(void)
{
	init();
	ready = 1;
}

static inline int index_of(const pk_variant *v)
{
	if (!ready)
		pthread_once(&once, init_once);
	return (int)(v - variant_at(0));
}

int vbits_bit(const pk_variant *v, int sq) { return tab[index_of(v)].bit[sq]; }

const uint8_t *vbits_square_of(const pk_variant *v) { return tab[index_of(v)].sq_of; }

void vbits_of(const pk_vpos *p, pk_vbits *b)
{
	const uint8_t *bit = tab[index_of(p->v)].bit;
	b->men[0] = b->men[1] = b->kings[0] = b->kings[1] = 0;
	int n = variant_squares(p->v);
	for (int s = 1; s <= n; s++)
		switch (p->sq[s]) {
		case VP_WMAN: b->men[PK_WHITE] |= 1ull << bit[s]; break;
		case VP_BMAN: b->men[PK_BLACK] |= 1ull << bit[s]; break;
		case VP_WKING: b->kings[PK_WHITE] |= 1ull << bit[s]; break;
		case VP_BKING: b->kings[PK_BLACK] |= 1ull << bit[s]; break;
		default: break;
		}
}

void vbits_make(const pk_vbits *b, const pk_vpos *p, const pk_vmove *m, const pk_vpos *after, pk_vbits *out)
{
	const uint8_t *bit = tab[index_of(p->v)].bit;
	uint64_t gone = 1ull << bit[m->from];
	for (int i = 0; i < m->ncap; i++)
		gone |= 1ull << bit[m->cap[i]];
	for (int c = 0; c < 2; c++) {
		out->men[c] = b->men[c] & ~gone;
		out->kings[c] = b->kings[c] & ~gone;
	}
	uint64_t to = 1ull << bit[m->to];
	switch (after->sq[m->to]) {
	case VP_WMAN: out->men[PK_WHITE] |= to; break;
	case VP_BMAN: out->men[PK_BLACK] |= to; break;
	case VP_WKING: out->kings[PK_WHITE] |= to; break;
	case VP_BKING: out->kings[PK_BLACK] |= to; break;
	default: break;
	}
}

/* One step along diagonal d (0 up-left, 1 up-right, 2 down-left, 3 down-right). */
static inline uint64_t step(uint64_t x, int d, int h, uint64_t valid)
{
	switch (d) {
	case 0: return (x >> (h + 1)) & valid;
	case 1: return (x >> h) & valid;
	case 2: return (x << h) & valid;
	default: return (x << (h + 1)) & valid;
	}
}

/* The helpers below are called with each direction as a constant, so that step()'s
 * choice of shift is made when compiling (a loop over the directions left it to run
 * time, a branch at every step of a king's line: a fifth of a search's time in endings). */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Whether men can take along d: a piece of by_men next to one, a free square past it. */
ALWAYS_INLINE bool men_take(uint64_t men, uint64_t by_men, uint64_t empty, int d, int h, uint64_t valid)
{
	return (step(step(men, d, h, valid) & by_men, d, h, valid) & empty) != 0;
}

/* x shifted k steps along d, the board's edges not minded (for the fill below). */
ALWAYS_INLINE uint64_t shift_by(uint64_t x, int d, int h, int k)
{
	switch (d) {
	case 0: return x >> k * (h + 1);
	case 1: return x >> k * h;
	case 2: return x << k * h;
	default: return x << k * (h + 1);
	}
}

/* The squares kings reach along d over free squares, any number of steps, the kings'
 * own among them: a fill of 1, 2, 4 and 8 steps at once, each through squares free all
 * the way (empty holds no square off the board, so no line runs over an edge), instead
 * of a step a turn until the lines end, whose end the processor cannot foresee. */
ALWAYS_INLINE uint64_t fly_fill(uint64_t kings, uint64_t empty, int d, int h)
{
	uint64_t g = kings, p = empty;
	g |= p & shift_by(g, d, h, 1);
	p &= shift_by(p, d, h, 1);
	g |= p & shift_by(g, d, h, 2);
	p &= shift_by(p, d, h, 2);
	g |= p & shift_by(g, d, h, 4);
	p &= shift_by(p, d, h, 4);
	g |= p & shift_by(g, d, h, 8);
	return g;
}

/* Whether kings can take along d: over the free squares (any number of them when they
 * fly) to a piece of theirs with a free square past it. */
ALWAYS_INLINE bool kings_take(uint64_t kings, uint64_t theirs, uint64_t empty, int d, int h, uint64_t valid, bool flying)
{
	uint64_t reach = flying ? fly_fill(kings, empty, d, h) : kings;
	return (step(step(reach, d, h, valid) & theirs, d, h, valid) & empty) != 0;
}

static void build_rays(int i)
{
	for (int d = 0; d < 4; d++)
		for (int b = 0; b < 64; b++)
			if (tab[i].valid >> b & 1)
				for (uint64_t x = step(1ull << b, d, tab[i].h, tab[i].valid); x; x = step(x, d, tab[i].h, tab[i].valid))
					tab[i].ray[d][b] |= x;
}

bool vbits_has_capture(const pk_variant *v, const pk_vbits *b, int stm)
{
	int i = index_of(v), h = tab[i].h;
	uint64_t valid = tab[i].valid;
	int opp = !stm;
	uint64_t all = b->men[0] | b->men[1] | b->kings[0] | b->kings[1];
	uint64_t empty = valid & ~all;
	uint64_t theirs = b->men[opp] | b->kings[opp];
	uint64_t by_men = v->men_spare_kings ? b->men[opp] : theirs;
	uint64_t men = b->men[stm], kings = b->kings[stm];
	bool fwd0 = v->men_capture_back || stm == PK_WHITE, fwd2 = v->men_capture_back || stm != PK_WHITE;
	if (fwd0 && (men_take(men, by_men, empty, 0, h, valid) || men_take(men, by_men, empty, 1, h, valid)))
		return true;
	if (fwd2 && (men_take(men, by_men, empty, 2, h, valid) || men_take(men, by_men, empty, 3, h, valid)))
		return true;
	if (!kings)
		return false;
	bool fly = v->flying;
	return kings_take(kings, theirs, empty, 0, h, valid, fly) || kings_take(kings, theirs, empty, 1, h, valid, fly) ||
	       kings_take(kings, theirs, empty, 2, h, valid, fly) || kings_take(kings, theirs, empty, 3, h, valid, fly);
}

uint64_t vbits_squares(const pk_variant *v, uint64_t bits)
{
	const uint64_t (*t)[256] = tab[index_of(v)].sq_byte;
	return t[0][bits & 255] | t[1][bits >> 8 & 255] | t[2][bits >> 16 & 255] | t[3][bits >> 24 & 255] |
	       t[4][bits >> 32 & 255] | t[5][bits >> 40 & 255] | t[6][bits >> 48 & 255];
}

uint64_t vbits_capturers(const pk_variant *v, const pk_vbits *b, int stm)
{
	int i = index_of(v), h = tab[i].h;
	uint64_t valid = tab[i].valid;
	int opp = !stm;
	uint64_t empty = valid & ~(b->men[0] | b->men[1] | b->kings[0] | b->kings[1]);
	uint64_t by_men = v->men_spare_kings ? b->men[opp] : b->men[opp] | b->kings[opp];
	uint64_t men = b->men[stm], from = b->kings[stm];
	int first = 0, last = 3;
	if (!v->men_capture_back) {
		first = stm == PK_WHITE ? 0 : 2;
		last = first + 1;
	}
	for (int d = first; d <= last; d++) {
		/* the men two steps back from a free landing square past a piece they may take */
		uint64_t land = step(step(men, d, h, valid) & by_men, d, h, valid) & empty;
		from |= step(step(land, 3 - d, h, valid), 3 - d, h, valid) & men;
	}
	return vbits_squares(v, from);
}

int vbits_safe_men_moves(const pk_variant *v, const pk_vbits *b, int stm)
{
	int i = index_of(v), h = tab[i].h;
	uint64_t valid = tab[i].valid;
	uint64_t empty = valid & ~(b->men[0] | b->men[1] | b->kings[0] | b->kings[1]);
	int first = stm == PK_WHITE ? 0 : 2, n = 0;
	for (int d = first; d <= first + 1; d++)
		for (uint64_t to = step(b->men[stm], d, h, valid) & empty; to; to &= to - 1) {
			uint64_t t = to & -to, from = step(t, 3 - d, h, valid);
			pk_vbits after = *b;
			after.men[stm] ^= from | t;
			n += !vbits_has_capture(v, &after, !stm);
		}
	return n;
}

/* The free squares kings reach along d (one step, or every step when they fly). */
ALWAYS_INLINE int kings_steps(uint64_t kings, uint64_t empty, int d, int h, uint64_t valid, bool flying)
{
	if (flying)   /* (one king's line ends at another's square: no square counted twice) */
		return __builtin_popcountll(fly_fill(kings, empty, d, h) & ~kings);
	return __builtin_popcountll(step(kings, d, h, valid) & empty);
}

int vbits_quiet_count(const pk_variant *v, const pk_vbits *b, int stm)
{
	int i = index_of(v), h = tab[i].h;
	uint64_t valid = tab[i].valid;
	uint64_t empty = valid & ~(b->men[0] | b->men[1] | b->kings[0] | b->kings[1]);
	uint64_t men = b->men[stm];
	int n = stm == PK_WHITE ? __builtin_popcountll(step(men, 0, h, valid) & empty) + __builtin_popcountll(step(men, 1, h, valid) & empty)
				: __builtin_popcountll(step(men, 2, h, valid) & empty) + __builtin_popcountll(step(men, 3, h, valid) & empty);
	uint64_t kings = b->kings[stm];
	if (kings) {
		bool fly = v->flying;
		n += kings_steps(kings, empty, 0, h, valid, fly) + kings_steps(kings, empty, 1, h, valid, fly) +
		     kings_steps(kings, empty, 2, h, valid, fly) + kings_steps(kings, empty, 3, h, valid, fly);
	}
	return n < VAR_MAX_MOVES ? n : VAR_MAX_MOVES;
}

/* ---- the whole move list on the bitboards (International rules) ------------------------ */

bool vbits_gen_supported(const pk_variant *v)
{
	return vbits_supported(v) && v->rule == VRULE_MAX && v->flying && v->men_capture_back &&
	       !v->crown_in_capture && !v->men_spare_kings && !v->short_landing;
}

typedef struct {
	int h;
	uint64_t valid;
	uint64_t empty;        /* free during the capture: the empty squares and the mover's own */
	uint64_t left;         /* the other side's pieces not yet taken */
	uint64_t their_kings;
	const uint8_t *sq_of;
	const uint64_t (*ray)[64];   /* the table's rays */
	int from;              /* the mover's square */
	uint64_t taken;        /* the pieces taken so far (bits) */
	pk_vmove cur;
	pk_vmovelist *out;     /* NULL: the sequences counted only */
	int n;                 /* sequences kept */
	uint64_t masks[VAR_MAX_MOVES];   /* each one's pieces taken, for telling them apart */
	uint16_t ft[VAR_MAX_MOVES];      /* and its squares from and to */
	int best;              /* the most pieces a sequence found so far takes */
} bbcap;

static inline int ctz(uint64_t x) { return __builtin_ctzll(x); }

/* A finished sequence, kept only when it takes the most pieces (the list restarts when
 * one takes more); the same pieces from the same square to the same square once. The
 * kept sequences stay in the order they were found: rules/variant.c's order. Without a
 * list (out NULL), only counted. */
static void bb_record(bbcap *c, uint64_t at)
{
	int n = c->cur.ncap;
	if (n < c->best)
		return;
	if (n > c->best) {
		c->best = n;
		c->n = 0;
	}
	int to = c->sq_of[ctz(at)];
	uint16_t ft = (uint16_t)(c->from << 8 | to);
	for (int i = 0; i < c->n; i++)
		if (c->ft[i] == ft && c->masks[i] == c->taken)
			return;
	if (c->n >= VAR_MAX_MOVES)   /* (more than 512 sequences of the most pieces: none known in play) */
		return;
	if (c->out) {
		pk_vmove *m = &c->out->m[c->n];
		*m = c->cur;
		m->from = (uint8_t)c->from;
		m->to = (uint8_t)to;
	}
	c->ft[c->n] = ft;
	c->masks[c->n++] = c->taken;
}

static void bb_capture(bbcap *c, uint64_t at, bool king);

/* The captures from at along d (a constant: see men_take), each followed on; whether
 * there was one. */
ALWAYS_INLINE bool bb_capture_dir(bbcap *c, uint64_t at, bool king, int d)
{
	int h = c->h;
	uint64_t valid = c->valid;
	if (c->cur.ncap >= VAR_MAX_CAP)
		return false;
	uint64_t t;
	if (king) {   /* the first square along d that is not free: the ray's nearest */
		uint64_t stop = c->ray[d][ctz(at)] & ~c->empty;
		t = d < 2 ? (stop ? 1ull << (63 - __builtin_clzll(stop)) : 0) : stop & -stop;
	} else {
		t = step(at, d, h, valid);
	}
	if (!(t & c->left))
		return false;
	uint64_t land = step(t, d, h, valid) & c->empty;
	if (!land)
		return false;
	c->left &= ~t;
	c->taken |= t;
	c->cur.cap[c->cur.ncap++] = c->sq_of[ctz(t)];
	c->cur.kings += (t & c->their_kings) != 0;
	do {
		c->cur.land[c->cur.nland++] = c->sq_of[ctz(land)];
		bb_capture(c, land, king);
		c->cur.nland--;
		land = king ? step(land, d, h, valid) & c->empty : 0;
	} while (land);
	c->cur.kings -= (t & c->their_kings) != 0;
	c->cur.ncap--;
	c->taken &= ~t;
	c->left |= t;
	return true;
}

static void bb_capture(bbcap *c, uint64_t at, bool king)
{
	bool more = bb_capture_dir(c, at, king, 0);
	more |= bb_capture_dir(c, at, king, 1);
	more |= bb_capture_dir(c, at, king, 2);
	more |= bb_capture_dir(c, at, king, 3);
	if (!more && c->cur.ncap > 0)
		bb_record(c, at);
}

/* The capture sequences of stm (who has one) that the rules allow, into ml (or only
 * counted when ml is NULL): from every man with a first jump and every king. */
static int bb_captures(int i, const pk_vbits *b, int stm, pk_vmovelist *ml)
{
	int h = tab[i].h;
	uint64_t valid = tab[i].valid;
	uint64_t empty = valid & ~(b->men[0] | b->men[1] | b->kings[0] | b->kings[1]);
	uint64_t theirs = b->men[!stm] | b->kings[!stm], men = b->men[stm];
	/* the men two steps back from a free square past a piece of theirs */
	uint64_t from = b->kings[stm];
	for (int d = 0; d < 4; d++) {
		uint64_t land = step(step(men, d, h, valid) & theirs, d, h, valid) & empty;
		from |= step(step(land, 3 - d, h, valid), 3 - d, h, valid) & men;
	}
	bbcap c;
	c.h = h;
	c.valid = valid;
	c.left = theirs;
	c.their_kings = b->kings[!stm];
	c.sq_of = tab[i].sq_of;
	c.ray = tab[i].ray;
	c.out = ml;
	c.n = 0;
	c.best = 0;
	memset(&c.cur, 0, sizeof c.cur);
	for (; from; from &= from - 1) {
		uint64_t at = from & -from;
		bool king = (at & b->kings[stm]) != 0;
		c.empty = empty | at;
		c.from = c.sq_of[ctz(at)];
		c.taken = 0;
		c.cur.by_king = king;
		bb_capture(&c, at, king);
	}
	return c.n;
}

int vbits_count(const pk_variant *v, const pk_vbits *b, int stm)
{
	if (vbits_has_capture(v, b, stm))
		return bb_captures(index_of(v), b, stm, NULL);
	return vbits_quiet_count(v, b, stm);
}

/* A king's plain moves from at along d, near to far, after the n moves of ml. */
ALWAYS_INLINE int king_line(pk_vmovelist *ml, int n, int s, uint64_t at, uint64_t empty, int d, int h, uint64_t valid,
			    const uint8_t *sq_of)
{
	for (uint64_t t = step(at, d, h, valid) & empty; t && n < VAR_MAX_MOVES; t = step(t, d, h, valid) & empty)
		vmove_quiet(&ml->m[n++], s, sq_of[ctz(t)], true);
	return n;
}

/* A man's plain move from at along d, after the n moves of ml. */
ALWAYS_INLINE int man_step(pk_vmovelist *ml, int n, int s, uint64_t at, uint64_t empty, int d, int h, uint64_t valid,
			   const uint8_t *sq_of)
{
	uint64_t t = step(at, d, h, valid) & empty;
	if (t && n < VAR_MAX_MOVES)
		vmove_quiet(&ml->m[n++], s, sq_of[ctz(t)], false);
	return n;
}

int vbits_gen_known(const pk_variant *v, const pk_vbits *b, int stm, bool capture, pk_vmovelist *ml)
{
	int i = index_of(v), h = tab[i].h;
	uint64_t valid = tab[i].valid;
	const uint8_t *sq_of = tab[i].sq_of;
	uint64_t all = b->men[0] | b->men[1] | b->kings[0] | b->kings[1];
	uint64_t empty = valid & ~all;
	ml->n = 0;
	if (capture)
		return ml->n = bb_captures(i, b, stm, ml);
	/* plain moves: each piece in the order of the squares, a man's two steps forward in
	 * the order of the directions, a king's four lines each from near to far */
	bool white = stm == PK_WHITE;
	int n = 0;
	uint64_t men = b->men[stm];
	uint64_t movers = b->kings[stm] |
			  (men & (white ? step(empty, 3, h, valid) | step(empty, 2, h, valid)
					: step(empty, 1, h, valid) | step(empty, 0, h, valid)));
	for (; movers; movers &= movers - 1) {
		uint64_t at = movers & -movers;
		int s = sq_of[ctz(at)];
		if (at & men) {
			if (white) {
				n = man_step(ml, n, s, at, empty, 0, h, valid, sq_of);
				n = man_step(ml, n, s, at, empty, 1, h, valid, sq_of);
			} else {
				n = man_step(ml, n, s, at, empty, 2, h, valid, sq_of);
				n = man_step(ml, n, s, at, empty, 3, h, valid, sq_of);
			}
			continue;
		}
		n = king_line(ml, n, s, at, empty, 0, h, valid, sq_of);
		n = king_line(ml, n, s, at, empty, 1, h, valid, sq_of);
		n = king_line(ml, n, s, at, empty, 2, h, valid, sq_of);
		n = king_line(ml, n, s, at, empty, 3, h, valid, sq_of);
	}
	ml->n = n;
	return n;
}

int vbits_gen(const pk_variant *v, const pk_vbits *b, int stm, pk_vmovelist *ml)
{
	return vbits_gen_known(v, b, stm, vbits_has_capture(v, b, stm), ml);
}

void vbits_make_move(const pk_variant *v, const pk_vbits *b, int stm, const pk_vmove *m, pk_vbits *out)
{
	int i = index_of(v);
	const uint8_t *bit = tab[i].bit;
	uint64_t gone = 0;
	for (int k = 0; k < m->ncap; k++)
		gone |= 1ull << bit[m->cap[k]];
	uint64_t from = 1ull << bit[m->from], to = 1ull << bit[m->to];
	*out = *b;
	out->men[!stm] &= ~gone;
	out->kings[!stm] &= ~gone;
	/* a man that ends its move on the far row is crowned */
	int far = stm == PK_WHITE ? 1 : variant_squares(v) - v->cols / 2 + 1;
	bool crown = (out->men[stm] & from) && m->to >= far && m->to < far + v->cols / 2;
	if (out->men[stm] & from) {
		out->men[stm] &= ~from;
		if (crown)
			out->kings[stm] |= to;
		else
			out->men[stm] |= to;
	} else {
		out->kings[stm] = (out->kings[stm] & ~from) | to;
	}
}

uint64_t vbits_perft(const pk_variant *v, const pk_vbits *b, int stm, int depth)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	int n = vbits_gen(v, b, stm, ml);
	uint64_t total = 0;
	if (depth <= 1)
		total = depth == 1 ? (uint64_t)n : 1;
	else
		for (int k = 0; k < n; k++) {
			pk_vbits c;
			vbits_make_move(v, b, stm, &ml->m[k], &c);
			total += vbits_perft(v, &c, !stm, depth - 1);
		}
	free(ml);
	return total;
}
