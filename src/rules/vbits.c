/* Bitboards of the 8x8 and 10x10 diagonal variants: captures and quiet-move counts
 * (rules/vbits.h). Checked against rules/variant.c's walk in tests/test_variant.c. */
#include <pthread.h>
#include "rules/pos.h"
#include "rules/vbits.h"

#define NTAB 32
static struct {
	uint8_t bit[VAR_MAX_SQ + 1];
	uint8_t sq_of[64];     /* the square of each bit (0: none) */
	uint64_t valid;
	int h;                 /* playing squares a row: a step down-left adds h, down-right h + 1 */
} tab[NTAB];
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* set once init has run: the hot paths test it before pthread_once's call */
static _Atomic int ready;

bool vbits_supported(const pk_variant *v)
{
	return !v->orthogonal && !v->capture_straight && !v->remove_at_once && !v->king_moves &&
	       v->rows == v->cols && (v->rows == 8 || v->rows == 10) && v->rule != VRULE_FRISIAN;
}

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
	int first = 0, last = 3;
	if (!v->men_capture_back) {
		first = stm == PK_WHITE ? 0 : 2;
		last = first + 1;
	}
	for (int d = first; d <= last; d++)
		if (step(step(men, d, h, valid) & by_men, d, h, valid) & empty)
			return true;
	if (!kings)
		return false;
	for (int d = 0; d < 4; d++) {
		uint64_t reach = kings;
		if (v->flying)
			for (uint64_t f = step(kings, d, h, valid) & empty; f; f = step(f, d, h, valid) & empty)
				reach |= f;
		if (step(step(reach, d, h, valid) & theirs, d, h, valid) & empty)
			return true;
	}
	return false;
}

uint64_t vbits_squares(const pk_variant *v, uint64_t bits)
{
	int i = index_of(v);
	uint64_t sq = 0;
	for (; bits; bits &= bits - 1)
		sq |= 1ull << (tab[i].sq_of[__builtin_ctzll(bits)] - 1);
	return sq;
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

int vbits_quiet_count(const pk_variant *v, const pk_vbits *b, int stm)
{
	int i = index_of(v), h = tab[i].h;
	uint64_t valid = tab[i].valid;
	uint64_t empty = valid & ~(b->men[0] | b->men[1] | b->kings[0] | b->kings[1]);
	int first = stm == PK_WHITE ? 0 : 2, n = 0;
	for (int d = first; d <= first + 1; d++)
		n += __builtin_popcountll(step(b->men[stm], d, h, valid) & empty);
	uint64_t kings = b->kings[stm];
	if (kings)
		for (int d = 0; d < 4; d++)
			for (uint64_t f = step(kings, d, h, valid) & empty; f; f = v->flying ? step(f, d, h, valid) & empty : 0)
				n += __builtin_popcountll(f);
	return n < VAR_MAX_MOVES ? n : VAR_MAX_MOVES;
}
