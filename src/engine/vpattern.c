/* The pattern evaluation of the 10x10 variants (see vpattern.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/vpattern.h"
#include "rules/vbits.h"

/* For each window, its eight playing squares as the mover sees them: [0] for White to
 * move, [1] for Black (the board turned half a circle). Window k's, k < VPAT_WINDOWS_STRIPS
 * (its table vpattern_table(k)). */
static uint8_t win_sq[2][VPAT_WINDOWS_STRIPS][8];
/* For each view and square, one lane a table: what a piece of the mover ([0]) or of the other side
 * ([1]) on the square adds to each window's index, the tables 0 .. 31 in two vectors of
 * sixteen, the strips' last four in another. Summing vectors a piece keeps the indices in
 * registers, where adding to them one by one in memory waited on each store. */
typedef uint16_t win_vec __attribute__((vector_size(32)));   /* a register of AVX2's */
typedef uint16_t win_vec_hi __attribute__((vector_size(16)));
#define HALF ((int)(sizeof(win_vec) / sizeof(uint16_t)))
#define LANES (2 * HALF)
_Static_assert(PAT_TABLES <= LANES + (int)(sizeof(win_vec_hi) / sizeof(uint16_t)), "a lane for every table");
/* [view][bit][mover, other][tables 0 .. 15, 16 .. 31], by the bit of the square on the
 * 10x10 bitboards (rules/vbits.h): two halves, each summed in a register of its own (a
 * vector of 64 bytes, where the machine has no such registers, went through memory at
 * every add) */
static win_vec sq_vec[2][64][2][2];
static win_vec_hi sq_vec_hi[2][64][2];
static pthread_once_t win_once = PTHREAD_ONCE_INIT;
static _Atomic int win_ready;

static void windows_init(void)
{
	const pk_variant *v = variant_by_name("international");
	/* the sixteen regions at rows and columns 0, 2, 4, 6, then the nine at 1, 3, 5 (4x4),
	 * then the strips: two columns by eight rows, eight columns by two rows */
	int origin[VPAT_WINDOWS_STRIPS][4], nw = 0;
	for (int wr = 0; wr <= 6; wr += 2)
		for (int wc = 0; wc <= 6; wc += 2, nw++)
			origin[nw][0] = wr, origin[nw][1] = wc, origin[nw][2] = 4, origin[nw][3] = 4;
	for (int wr = 1; wr <= 5; wr += 2)
		for (int wc = 1; wc <= 5; wc += 2, nw++)
			origin[nw][0] = wr, origin[nw][1] = wc, origin[nw][2] = 4, origin[nw][3] = 4;
	for (int c = 0; c <= 8; c += 2, nw++)
		origin[nw][0] = 1, origin[nw][1] = c, origin[nw][2] = 8, origin[nw][3] = 2;
	for (int r = 0; r <= 8; r += 2, nw++)
		origin[nw][0] = r, origin[nw][1] = 1, origin[nw][2] = 2, origin[nw][3] = 8;
	for (int side = 0; side < 2; side++)
		for (int k = 0; k < VPAT_WINDOWS_STRIPS; k++) {
			int n = 0;
			for (int r = origin[k][0]; r < origin[k][0] + origin[k][2]; r++)
				for (int c = origin[k][1]; c < origin[k][1] + origin[k][3]; c++) {
					int rr = side ? 9 - r : r, cc = side ? 9 - c : c;
					int sq = variant_rc_square(v, rr, cc);
					if (sq && n < 8)
						win_sq[side][k][n++] = (uint8_t)sq;
				}
		}
	for (int side = 0; side < 2; side++)
		for (int k = 0; k < VPAT_WINDOWS_STRIPS; k++)
			for (int i = 0, pw = 1; i < 8; i++, pw *= 3) {
				int s = vbits_bit(v, win_sq[side][k][i]), tab = vpattern_table(k);
				if (tab < LANES) {
					sq_vec[side][s][0][tab / HALF][tab % HALF] = (uint16_t)pw;
					sq_vec[side][s][1][tab / HALF][tab % HALF] = (uint16_t)(2 * pw);
				} else {
					sq_vec_hi[side][s][0][tab - LANES] = (uint16_t)pw;
					sq_vec_hi[side][s][1][tab - LANES] = (uint16_t)(2 * pw);
				}
			}
	win_ready = 1;
}

int vpattern_partner(int k)
{
	if (k >= VPAT_STRIP0)   /* strip i of its kind and strip 4 - i */
		return k < VPAT_STRIP0 + 5 ? 2 * VPAT_STRIP0 + 4 - k : 2 * VPAT_STRIP0 + 14 - k;
	return k < VPAT_WINDOWS_BASIC ? VPAT_WINDOWS_BASIC - 1 - k : VPAT_WINDOWS_BASIC + VPAT_WINDOWS - 1 - k;
}

int vpattern_turned(int idx)
{
	int y = 0;
	for (int d = 0; d < 8; d++, idx /= 3) {   /* the first square's digit becomes the last's */
		int c = idx % 3;
		y = y * 3 + (c == 1 ? 2 : c == 2 ? 1 : 0);
	}
	return y;
}

bool vpattern_board(const pk_variant *v)
{
	return v && v->rows == 10 && v->cols == 10 && !v->inverted && !v->orthogonal;
}

/* pattern.h's 22 steps: 40 pieces down to 2, or 300 rows to go down to 0. */
int vpattern_step(bool tempo, int pieces, int rows_to_go)
{
	int d = tempo ? (300 - rows_to_go) * 22 / 300 : (40 - pieces) * 22 / 38;
	return d < 0 ? 0 : d > 22 ? 22 : d;
}

/* The phase and place between phases of a step. */
static void phase_of(int d, int *phase, int *t)
{
	int ph = d / PAT_SEG;
	if (ph > PAT_PHASES - 2)
		ph = PAT_PHASES - 2;
	*phase = ph;
	*t = d - ph * PAT_SEG;
}

int vpattern_rows_to_go(const pk_vpos *p)
{
	int n = 0;
	for (int s = 1; s <= 50; s++) {
		int row = (s - 1) / 5;   /* 0: Black's back row, where White's men crown */
		n += p->sq[s] == VP_WMAN ? row : p->sq[s] == VP_BMAN ? 9 - row : 0;
	}
	return n;
}

void vpattern_indices(const pk_vpos *p, bool men_only, bool tempo, uint16_t idx[PAT_TABLES], int *phase, int *t)
{
	pthread_once(&win_once, windows_init);
	int side = p->stm == PK_WHITE ? 0 : 1;
	uint8_t state[VAR_MAX_SQ + 1];
	int pieces = 0, count[2][2] = { { 0, 0 }, { 0, 0 } };   /* [mover, other][men, kings] */
	for (int s = 1; s <= 50; s++) {
		int c = p->sq[s];
		if (c == VP_EMPTY) {
			state[s] = 0;
			continue;
		}
		pieces++;
		bool white = c == VP_WMAN || c == VP_WKING, king = c == VP_WKING || c == VP_BKING;
		bool mine = white == (p->stm == PK_WHITE);
		count[!mine][king]++;
		if (men_only && king) {
			state[s] = 0;
			continue;
		}
		state[s] = mine ? 1 : 2;
	}
	idx[PAT_MATERIAL] = (uint16_t)vpattern_material_index(count[0][0], count[0][1], count[1][0], count[1][1]);
	for (int k = 0; k < VPAT_WINDOWS_STRIPS; k++) {
		int x = 0;
		for (int i = 7; i >= 0; i--)
			x = x * 3 + state[win_sq[side][k][i]];
		idx[vpattern_table(k)] = (uint16_t)x;
	}
	/* 40 pieces down to 2 (or 300 rows to go down to 0), onto pattern.h's 22 steps */
	phase_of(vpattern_step(tempo, pieces, tempo ? vpattern_rows_to_go(p) : 0), phase, t);
}

int vpattern_material_index(int own_men, int own_kings, int opp_men, int opp_kings)
{
	int own = (own_kings > 3 ? 3 : own_kings) * 20 + (own_men > 19 ? 19 : own_men);
	int opp = (opp_kings > 3 ? 3 : opp_kings) * 20 + (opp_men > 19 ? 19 : opp_men);
	return own * 81 + opp;
}

/* The sum of the windows' weights (and the material's), blended between the phases. */
static int blend(const pk_patterns *pt, const uint16_t *idx, int ph, int t)
{
	const int16_t (*a)[PAT_INDEX] = pt->w[ph], (*b)[PAT_INDEX] = pt->w[ph + 1];
	int s0 = 0, s1 = 0, nw = pt->windows;
	if (pt->material) {
		s0 = a[PAT_MATERIAL][idx[PAT_MATERIAL]];
		s1 = b[PAT_MATERIAL][idx[PAT_MATERIAL]];
	}
	int n4 = nw < VPAT_WINDOWS ? nw : VPAT_WINDOWS, ns = VPAT_STRIP0 + nw - n4;
	for (int k = 0; k < n4; k++)
		s0 += a[k][idx[k]];
	for (int k = VPAT_STRIP0; k < ns; k++)
		s0 += a[k][idx[k]];
	if (t) {
		for (int k = 0; k < n4; k++)
			s1 += b[k][idx[k]];
		for (int k = VPAT_STRIP0; k < ns; k++)
			s1 += b[k][idx[k]];
	}
	return t ? (s0 * (PAT_SEG - t) + s1 * t) / PAT_SEG : s0;
}

/* blend() from the weights' interleaved copy (two phases: ph is 0). */
static int blend_wi(const pk_patterns *pt, const uint16_t *idx, int t)
{
	int s0 = 0, s1 = 0, nw = pt->windows;
	if (pt->material) {
		uint32_t x = pt->wi[PAT_MATERIAL][idx[PAT_MATERIAL]];
		s0 = (int16_t)(uint16_t)x;
		s1 = (int16_t)(uint16_t)(x >> 16);
	}
	int n4 = nw < VPAT_WINDOWS ? nw : VPAT_WINDOWS, ns = VPAT_STRIP0 + nw - n4;
	for (int k = 0; k < n4; k++) {
		uint32_t x = pt->wi[k][idx[k]];
		s0 += (int16_t)(uint16_t)x;
		s1 += (int16_t)(uint16_t)(x >> 16);
	}
	for (int k = VPAT_STRIP0; k < ns; k++) {
		uint32_t x = pt->wi[k][idx[k]];
		s0 += (int16_t)(uint16_t)x;
		s1 += (int16_t)(uint16_t)(x >> 16);
	}
	return t ? (s0 * (PAT_SEG - t) + s1 * t) / PAT_SEG : s0;
}

int vpattern_eval(const pk_patterns *pt, const pk_vpos *p)
{
	uint16_t idx[PAT_TABLES];
	int ph, t;
	vpattern_indices(p, pt->men_only, pt->tempo, idx, &ph, &t);
	return blend(pt, idx, ph, t);
}

int vpattern_eval_masks(const pk_patterns *pt, int stm, uint64_t white, uint64_t black, int pieces, int material)
{
	return vpattern_eval_masks_step(pt, stm, white, black, vpattern_step(false, pieces, 0), material);
}

int vpattern_eval_masks_step(const pk_patterns *pt, int stm, uint64_t white, uint64_t black, int step, int material)
{
	if (!win_ready)
		pthread_once(&win_once, windows_init);
	int side = stm == PK_WHITE ? 0 : 1;
	uint64_t own = side ? black : white, opp = side ? white : black;
	win_vec a0 = { 0 }, a1 = { 0 }, b0 = { 0 }, b1 = { 0 };   /* the mover's and the other's, side by side */
	for (uint64_t m = own; m; m &= m - 1) {
		const win_vec *v = sq_vec[side][__builtin_ctzll(m)][0];
		a0 += v[0];
		a1 += v[1];
	}
	for (uint64_t m = opp; m; m &= m - 1) {
		const win_vec *v = sq_vec[side][__builtin_ctzll(m)][1];
		b0 += v[0];
		b1 += v[1];
	}
	a0 += b0;
	a1 += b1;
	uint16_t idx[LANES + sizeof(win_vec_hi) / sizeof(uint16_t)];
	_Static_assert(LANES > PAT_MATERIAL, "a lane for the material's index");
	memcpy(idx, &a0, sizeof a0);
	memcpy(idx + HALF, &a1, sizeof a1);
	if (pt->windows > VPAT_WINDOWS) {   /* the strips past the first vector's lanes */
		win_vec_hi hi = { 0 }, hi2 = { 0 };
		for (uint64_t m = own; m; m &= m - 1)
			hi += sq_vec_hi[side][__builtin_ctzll(m)][0];
		for (uint64_t m = opp; m; m &= m - 1)
			hi2 += sq_vec_hi[side][__builtin_ctzll(m)][1];
		hi += hi2;
		memcpy(idx + LANES, &hi, sizeof hi);
	}
	idx[PAT_MATERIAL] = (uint16_t)material;
	int ph, t;
	phase_of(step, &ph, &t);
	return PAT_PHASES == 2 && pt->wi_ready ? blend_wi(pt, idx, t) : blend(pt, idx, ph, t);
}

int vpatterns_parse(const char *text, pk_patterns *pt, int *gametype, char *err, size_t errsize)
{
	memset(pt, 0, sizeof *pt);
	*gametype = 0;
	int line = 0, windows = VPAT_WINDOWS_BASIC;
	bool header = false, men_only = false, material = false, tempo = false;
	for (const char *p = text; *p;) {
		line++;
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char buf[1024];
		const char *hash0 = memchr(p, '#', len);
		if (hash0)
			len = (size_t)(hash0 - p);   /* a comment, however long, is no part of the line */
		if (len >= sizeof buf) {
			snprintf(err, errsize, "line %d: longer than %zu bytes", line, sizeof buf - 1);
			return -1;
		}
		memcpy(buf, p, len);
		buf[len] = 0;
		p = end ? end + 1 : p + strlen(p);
		int a, b, c, d;
		char extra;
		char word[32];
		if (sscanf(buf, " %31s", word) != 1)
			continue;
		if (!header) {
			if (strcmp(buf, "pdnkit-vpatterns 1") != 0) {
				snprintf(err, errsize, "line %d: not a variant pattern file (\"pdnkit-vpatterns 1\" first)", line);
				return -1;
			}
			header = true;
		} else if (sscanf(buf, " gametype %d %c", &a, &extra) == 1) {
			*gametype = a;
		} else if (sscanf(buf, " windows %d %c", &a, &extra) == 1) {
			if (a != VPAT_WINDOWS_BASIC && a != VPAT_WINDOWS && a != VPAT_WINDOWS_STRIPS) {
				snprintf(err, errsize, "line %d: windows %d: %d, %d or %d", line, a, VPAT_WINDOWS_BASIC,
					 VPAT_WINDOWS, VPAT_WINDOWS_STRIPS);
				return -1;
			}
			windows = a;
		} else if (sscanf(buf, " pieces %31s %c", word, &extra) == 1) {
			if (strcmp(word, "men") && strcmp(word, "all")) {
				snprintf(err, errsize, "line %d: pieces %s: men or all", line, word);
				return -1;
			}
			men_only = !strcmp(word, "men");
		} else if (sscanf(buf, " phase %31s %c", word, &extra) == 1) {
			if (strcmp(word, "tempo") && strcmp(word, "pieces")) {
				snprintf(err, errsize, "line %d: phase %s: tempo or pieces", line, word);
				return -1;
			}
			tempo = !strcmp(word, "tempo");
		} else if (sscanf(buf, " %31s %c", word, &extra) == 1 && !strcmp(word, "material")) {
			material = true;
		} else if (sscanf(buf, " %d %d %d %d %c", &a, &b, &c, &d, &extra) == 4) {
			if (a < 0 || a >= PAT_PHASES || b < 0 || b >= PAT_TABLES ||
			    (!vpattern_table_used(windows, b) && !(material && b == PAT_MATERIAL)) || c < 0 ||
			    c >= PAT_INDEX || d < -10000 || d > 10000) {
				snprintf(err, errsize, "line %d: a weight out of its range", line);
				return -1;
			}
			pt->w[a][b][c] = (int16_t)d;
		} else {
			snprintf(err, errsize, "line %d: expected 'PHASE WINDOW INDEX VALUE'", line);
			return -1;
		}
	}
	if (!header || !*gametype) {
		snprintf(err, errsize, "%s", !header ? "empty: no \"pdnkit-vpatterns 1\" line" : "no 'gametype N' line");
		return -1;
	}
	pt->windows = windows;
	pt->men_only = men_only;
	pt->material = material;
	pt->tempo = tempo;
	vpatterns_checksum(pt);
	return 0;
}

void vpatterns_checksum(pk_patterns *pt)
{
	if (pt->windows != VPAT_WINDOWS && pt->windows != VPAT_WINDOWS_STRIPS)
		pt->windows = VPAT_WINDOWS_BASIC;
	pt->material = pt->material != 0;
	uint32_t h = 2166136261u;
	long nz = 0;
	/* the windows' tables in table order: 16 or 25 windows keep the names they had */
	for (int ph = 0; ph < PAT_PHASES; ph++)
		for (int k = 0; k < PAT_TABLES; k++)
			for (int i = 0; i < PAT_INDEX && vpattern_table_used(pt->windows, k); i++) {
				int16_t x = pt->w[ph][k][i];
				nz += x != 0;
				for (int byte = 0; byte < 2; byte++)
					h = (h ^ (uint8_t)((uint16_t)x >> (8 * byte))) * 16777619u;
			}
	if (pt->men_only)
		h = (h ^ 'm') * 16777619u;   /* the same weights read otherwise */
	if (pt->tempo)
		h = (h ^ 't') * 16777619u;
	for (int ph = 0; ph < PAT_PHASES && pt->material; ph++)
		for (int i = 0; i < PAT_INDEX; i++) {
			int16_t x = pt->w[ph][PAT_MATERIAL][i];
			nz += x != 0;
			for (int byte = 0; byte < 2; byte++)
				h = (h ^ (uint8_t)((uint16_t)x >> (8 * byte))) * 16777619u;
		}
	pt->checksum = h;
	pt->nonzero = nz;
	pt->wi_ready = PAT_PHASES == 2;
	for (int k = 0; k < PAT_TABLES && pt->wi_ready; k++)
		for (int i = 0; i < PAT_INDEX; i++)
			pt->wi[k][i] = (uint16_t)pt->w[0][k][i] | (uint32_t)(uint16_t)pt->w[PAT_PHASES - 1][k][i] << 16;
}

char *vpatterns_format(const pk_patterns *pt, const pk_variant *v, const char *comment)
{
	size_t cap = 1 << 20, n = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	n += (size_t)snprintf(out + n, cap - n, "pdnkit-vpatterns 1\n# %s\ngametype %d\n", comment ? comment : v->name,
			      v->gametype);
	if (pt->windows == VPAT_WINDOWS || pt->windows == VPAT_WINDOWS_STRIPS)
		n += (size_t)snprintf(out + n, cap - n, "windows %d\n", pt->windows);
	if (pt->men_only)
		n += (size_t)snprintf(out + n, cap - n, "pieces men\n");
	if (pt->material)
		n += (size_t)snprintf(out + n, cap - n, "material\n");
	if (pt->tempo)
		n += (size_t)snprintf(out + n, cap - n, "phase tempo\n");
	for (int ph = 0; ph < PAT_PHASES; ph++)
		for (int k = 0; k < PAT_TABLES; k++)
			for (int i = 0; i < PAT_INDEX; i++) {
				if (!pt->w[ph][k][i] || (!vpattern_table_used(pt->windows, k) && !(k == PAT_MATERIAL && pt->material)))
					continue;
				if (cap - n < 64) {
					char *o2 = realloc(out, cap *= 2);
					if (!o2) {
						free(out);
						return NULL;
					}
					out = o2;
				}
				n += (size_t)snprintf(out + n, cap - n, "%d %d %d %d\n", ph, k, i, pt->w[ph][k][i]);
			}
	return out;
}

/* book/vpatterns-*.txt as text (the Makefile builds them in). */
extern const char *const vpatterns_texts[];
#define MAX_BUILTIN 4
static struct {
	int gametype;
	pk_patterns *pt;
} builtin[MAX_BUILTIN];
static int nbuiltin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void read_builtin(void)
{
	for (int i = 0; vpatterns_texts[i] && nbuiltin < MAX_BUILTIN; i++) {
		pk_patterns *pt = malloc(sizeof *pt);
		int gt;
		char err[160];
		if (!pt || vpatterns_parse(vpatterns_texts[i], pt, &gt, err, sizeof err) < 0) {
			free(pt);
			continue;   /* a broken file is caught by the tests */
		}
		builtin[nbuiltin].gametype = gt;
		builtin[nbuiltin++].pt = pt;
	}
}

const pk_patterns *vpatterns_builtin(const pk_variant *v)
{
	pthread_once(&builtin_once, read_builtin);
	for (int i = 0; i < nbuiltin; i++)
		if (builtin[i].gametype == v->gametype)
			return builtin[i].pt;
	return NULL;
}
