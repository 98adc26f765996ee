/* Slices and their index: men first (each side's men ranked among the 28 squares a man
 * of that colour may stand on), then kings ranked among the squares the men left free.
 * Men of both sides on one square leave holes in the index (under a third of any slice);
 * kings leave none. */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "egdb/slice.h"

static uint64_t binom[33][13];

static void binom_init(void)
{
	if (binom[0][0])
		return;
	for (int n = 0; n <= 32; n++) {
		binom[n][0] = 1;
		for (int k = 1; k <= 12; k++)
			binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
	}
}

pk_material material_mirror(const pk_material *a)
{
	pk_material b = { { a->m[1], a->m[0] }, { a->k[1], a->k[0] } };
	return b;
}

bool material_valid(const pk_material *a)
{
	for (int s = 0; s < 2; s++)
		if (a->m[s] < 0 || a->k[s] < 0 || a->m[s] + a->k[s] < 1 || a->m[s] + a->k[s] > 12)
			return false;
	return true;
}

int material_each(int n, int (*fn)(const pk_material *, void *), void *ctx)
{
	pk_material a;
	for (a.m[0] = 0; a.m[0] <= n; a.m[0]++)
		for (a.k[0] = 0; a.m[0] + a.k[0] <= n; a.k[0]++)
			for (a.m[1] = 0; a.m[0] + a.k[0] + a.m[1] <= n; a.m[1]++) {
				a.k[1] = n - a.m[0] - a.k[0] - a.m[1];
				if (material_valid(&a)) {
					int rc = fn(&a, ctx);
					if (rc)
						return rc;
				}
			}
	return 0;
}

int material_name(const pk_material *a, char *buf, size_t size)
{
	char t[32];
	int n = 0;
	for (int s = 0; s < 2; s++) {
		if (s)
			t[n++] = '-';
		for (int i = 0; i < a->m[s] && n < 28; i++)
			t[n++] = 'M';
		for (int i = 0; i < a->k[s] && n < 28; i++)
			t[n++] = 'K';
	}
	t[n] = 0;
	return snprintf(buf, size, "%s", t);
}

int material_parse(const char *s, pk_material *out)
{
	memset(out, 0, sizeof *out);
	int side = 0;
	for (; *s; s++) {
		int c = toupper((unsigned char)*s);
		if (c == '-' && side == 0)
			side = 1;
		else if (c == 'M' && out->k[side] == 0)
			out->m[side]++;
		else if (c == 'K')
			out->k[side]++;
		else
			return -1;
		if (out->m[side] + out->k[side] > 12)
			return -1;
	}
	return side == 1 && material_valid(out) ? 0 : -1;
}

void egdb_canonical(const pk_pos *p, pk_pos *out)
{
	if (p->stm == PK_BLACK) {
		*out = *p;
		return;
	}
	pk_pos q;
	q.side[PK_BLACK] = bb_reverse32(p->side[PK_WHITE]);
	q.side[PK_WHITE] = bb_reverse32(p->side[PK_BLACK]);
	q.kings = bb_reverse32(p->kings);
	q.stm = PK_BLACK;
	q.key = 0;
	*out = q;
}

void egdb_material(const pk_pos *c, pk_material *out)
{
	for (int s = 0; s < 2; s++) {
		out->m[s] = bb_count(c->side[s] & ~c->kings);
		out->k[s] = bb_count(c->side[s] & c->kings);
	}
}

void slice_init(pk_slice *s, const pk_material *mat)
{
	binom_init();
	s->mat = *mat;
	int men = mat->m[0] + mat->m[1];
	s->n_m0 = binom[28][mat->m[0]];
	s->n_m1 = binom[28][mat->m[1]];
	s->n_k0 = binom[32 - men][mat->k[0]];
	s->n_k1 = binom[32 - men - mat->k[0]][mat->k[1]];
	s->size = s->n_m0 * s->n_m1 * s->n_k0 * s->n_k1;
	s->part = false;
	s->lead[0] = s->lead[1] = -1;
	s->base0 = s->base1 = 0;
}

/* The men of a side of k men whose most advanced is on row r: the colex ranks
 * [binom[4r][k], binom[4r + 4][k]) of their squares counted from the side's back row. */
static void lead_range(int k, int r, uint64_t *base, uint64_t *count)
{
	if (k == 0) {
		*base = 0;
		*count = 1;
		return;
	}
	*base = binom[4 * r][k];
	*count = binom[4 * r + 4][k] - *base;
}

void slice_init_part(pk_slice *s, const pk_material *mat, int lead0, int lead1)
{
	slice_init(s, mat);
	s->part = true;
	s->lead[0] = mat->m[0] ? lead0 : -1;
	s->lead[1] = mat->m[1] ? lead1 : -1;
	lead_range(mat->m[0], s->lead[0], &s->base0, &s->n_m0);
	lead_range(mat->m[1], s->lead[1], &s->base1, &s->n_m1);
	s->size = s->n_m0 * s->n_m1 * s->n_k0 * s->n_k1;
}

void slice_leads(const pk_pos *c, int lead[2])
{
	bb_t men0 = c->side[0] & ~c->kings, men1 = c->side[1] & ~c->kings;
	lead[0] = men0 ? (31 - __builtin_clz(men0)) / 4 : -1;
	lead[1] = men1 ? (31 - bb_first(men1)) / 4 : -1;
}

/* Colex rank of the set bits of x. */
static uint64_t rank_set(bb_t x)
{
	uint64_t r = 0;
	for (int i = 1; x; i++, x = bb_clear_first(x))
		r += binom[bb_first(x)][i];
	return r;
}

/* The set of k positions with colex rank r. */
static bb_t unrank_set(uint64_t r, int k)
{
	bb_t x = 0;
	int c = 31;
	for (int i = k; i >= 1; i--) {
		while (binom[c][i] > r)
			c--;
		x |= bb_sq(c);
		r -= binom[c][i];
		c--;
	}
	return x;
}

/* Each set bit of x renumbered among the bits not in used ("squeezed out"), and the
 * inverse: bit j of x becomes the j-th bit not in used. With BMI2 one instruction each,
 * except on the first two Zen generations, where those instructions are microcode. */
#if defined(__BMI2__) && !defined(__znver1) && !defined(__znver2)
#include <immintrin.h>
static bb_t squeeze(bb_t x, bb_t used) { return _pext_u32(x, ~used); }
static bb_t expand(bb_t x, bb_t used) { return _pdep_u32(x, ~used); }
#else
static bb_t squeeze(bb_t x, bb_t used)
{
	bb_t out = 0;
	for (; x; x = bb_clear_first(x)) {
		int b = bb_first(x);
		out |= bb_sq(b - bb_count(used & (bb_sq(b) - 1)));
	}
	return out;
}

static bb_t expand(bb_t x, bb_t used)
{
	bb_t out = 0, free = ~used;
	int j = 0;
	for (; x; x = bb_clear_first(x)) {
		int want = bb_first(x);
		while (j < want) {
			free = bb_clear_first(free);
			j++;
		}
		out |= bb_sq(bb_first(free));
	}
	return out;
}
#endif

uint64_t slice_index(const pk_slice *s, const pk_pos *c)
{
	bb_t men0 = c->side[0] & ~c->kings, men1 = c->side[1] & ~c->kings;
	bb_t k0 = c->side[0] & c->kings, k1 = c->side[1] & c->kings;
	bb_t men = men0 | men1;
	uint64_t i;
	if (s->part) {
		i = rank_set(men0) - s->base0;
		i = i * s->n_m1 + rank_set(bb_reverse32(men1)) - s->base1;
	} else {
		i = rank_set(men0);
		i = i * s->n_m1 + rank_set(men1 >> 4);
	}
	i = i * s->n_k0 + rank_set(squeeze(k0, men));
	i = i * s->n_k1 + rank_set(squeeze(k1, men | k0));
	return i;
}

bool slice_position(const pk_slice *s, uint64_t idx, pk_pos *out)
{
	assert(idx < s->size);
	const pk_material *a = &s->mat;
	uint64_t r_k1 = idx % s->n_k1;
	idx /= s->n_k1;
	uint64_t r_k0 = idx % s->n_k0;
	idx /= s->n_k0;
	uint64_t r_m1 = idx % s->n_m1;
	uint64_t r_m0 = idx / s->n_m1;
	bb_t men0 = unrank_set(r_m0 + s->base0, a->m[0]);
	bb_t men1 = s->part ? bb_reverse32(unrank_set(r_m1 + s->base1, a->m[1])) : unrank_set(r_m1, a->m[1]) << 4;
	if (men0 & men1)
		return false;
	bb_t men = men0 | men1;
	bb_t k0 = expand(unrank_set(r_k0, a->k[0]), men);
	bb_t k1 = expand(unrank_set(r_k1, a->k[1]), men | k0);
	out->side[0] = men0 | k0;
	out->side[1] = men1 | k1;
	out->kings = k0 | k1;
	out->stm = PK_BLACK;
	out->key = 0;
	return true;
}

void slice_walk_init(pk_slice_walk *w, const pk_slice *s)
{
	w->s = s;
	w->outer = UINT64_MAX;
	w->men0 = w->men1 = w->k0 = 0;
	w->hole = false;
}

bool slice_walk_position(pk_slice_walk *w, uint64_t idx, pk_pos *out)
{
	const pk_slice *s = w->s;
	assert(idx < s->size);
	const pk_material *a = &s->mat;
	uint64_t outer = idx / s->n_k1, r_k1 = idx % s->n_k1;
	if (outer != w->outer) {
		w->outer = outer;
		uint64_t r_k0 = outer % s->n_k0, rest = outer / s->n_k0;
		uint64_t r_m1 = rest % s->n_m1, r_m0 = rest / s->n_m1;
		w->men0 = unrank_set(r_m0 + s->base0, a->m[0]);
		w->men1 = s->part ? bb_reverse32(unrank_set(r_m1 + s->base1, a->m[1])) : unrank_set(r_m1, a->m[1]) << 4;
		w->hole = (w->men0 & w->men1) != 0;
		if (!w->hole)
			w->k0 = expand(unrank_set(r_k0, a->k[0]), w->men0 | w->men1);
	}
	if (w->hole)
		return false;
	bb_t k1 = expand(unrank_set(r_k1, a->k[1]), w->men0 | w->men1 | w->k0);
	out->side[0] = w->men0 | w->k0;
	out->side[1] = w->men1 | k1;
	out->kings = w->k0 | k1;
	out->stm = PK_BLACK;
	out->key = 0;
	return true;
}
