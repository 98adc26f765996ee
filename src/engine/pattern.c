/* The pattern evaluation. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/hash.h"
#include "engine/pattern.h"
/* pext compresses a window's squares in one instruction, except on the first two Zen
 * generations, where it is microcode taking a cycle or more a bit: there, and without
 * BMI2, tables a byte of the board at a time do it. */
#if defined(__BMI2__) && !defined(__znver1) && !defined(__znver2)
#define PAT_PEXT 1
#include <immintrin.h>
#endif

/* The playing squares (bit numbers) of each window, and their masks. */
static uint32_t win_mask[PAT_WINDOWS];
static uint16_t ter[256];             /* the bits of a byte read as base-3 digits 0/1 */
static uint32_t quin[256];            /* ... as base-5 digits 0/1 */
static uint8_t side_case[13][13];     /* pieces, kings: 0 .. 80 */
#ifndef PAT_PEXT
static uint8_t win_byte[PAT_WINDOWS][4][256];  /* a byte of the board's window bits, compressed */
#endif

static int row_of(int b) { return b / 4; }
static int col_of(int b) { int r = b / 4; return (r % 2 == 0) ? 2 * (b % 4) + 1 : 2 * (b % 4); }

__attribute__((constructor)) static void init_tables(void)
{
	/* the nine two squares apart first (the windows of the files of format 2), then the
	 * other sixteen, row by row */
	int k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int y0 = 0; y0 <= 4; y0++)
			for (int x0 = 0; x0 <= 4; x0++) {
				if ((x0 % 2 == 0 && y0 % 2 == 0) != (pass == 0))
					continue;
				win_mask[k] = 0;
				for (int b = 0; b < 32; b++)
					if (row_of(b) >= y0 && row_of(b) < y0 + 4 && col_of(b) >= x0 && col_of(b) < x0 + 4)
						win_mask[k] |= 1u << b;
				k++;
			}
#ifndef PAT_PEXT
	for (int w = 0; w < PAT_WINDOWS; w++)
		for (int b = 0; b < 4; b++)
			for (int v = 0; v < 256; v++) {
				/* the window's bits below this byte come first */
				int below = __builtin_popcount(win_mask[w] & ((1u << (8 * b)) - 1u)), c = 0;
				uint32_t r = 0;
				for (int i = 0; i < 8; i++)
					if (win_mask[w] >> (8 * b + i) & 1) {
						if (v >> i & 1)
							r |= 1u << (below + c);
						c++;
					}
				win_byte[w][b][v] = (uint8_t)r;
			}
#endif
	/* the cases of n pieces: kings 0 .. min(n, 8) */
	for (int n = 0, base = 0; n <= 12; base += (n < 8 ? n : 8) + 1, n++)
		for (int kg = 0; kg <= 12; kg++) {
			int k2 = kg > n ? n : kg;
			side_case[n][kg] = (uint8_t)(base + (k2 > 8 ? 8 : k2));
		}
	for (int v = 0; v < 256; v++) {
		int t = 0, p3 = 1, q = 0, p5 = 1;
		for (int i = 0; i < 8; i++, p3 *= 3, p5 *= 5)
			if (v >> i & 1) {
				t += p3;
				q += p5;
			}
		ter[v] = (uint16_t)t;
		quin[v] = (uint32_t)q;
	}
}

/* The bits of x in window k's squares, packed in their order. */
static inline uint32_t extract(uint32_t x, int k)
{
#if defined(PAT_PEXT)
	return _pext_u32(x, win_mask[k]);
#else
	const uint8_t (*t)[256] = win_byte[k];
	return t[0][x & 0xFF] | t[1][x >> 8 & 0xFF] | t[2][x >> 16 & 0xFF] | t[3][x >> 24];
#endif
}

void pattern_indices(const pk_pos *p, int windows, bool material, uint16_t idx[PAT_TABLES], int *phase, int *t)
{
	uint32_t own = (uint32_t)p->side[p->stm], opp = (uint32_t)p->side[!p->stm];
	if (material) {
		int no = __builtin_popcount(own), np = __builtin_popcount(opp);
		int ko = __builtin_popcount(own & (uint32_t)p->kings), kp = __builtin_popcount(opp & (uint32_t)p->kings);
		idx[PAT_MATERIAL] = (uint16_t)(side_case[no > 12 ? 12 : no][ko > 12 ? 12 : ko] * 81 +
					       side_case[np > 12 ? 12 : np][kp > 12 ? 12 : kp]);
	}
	if (p->stm == PK_WHITE) {
		/* turned half a circle: the mover's men always move towards square 32 */
		own = bb_reverse32(own);
		opp = bb_reverse32(opp);
	}
	for (int k = 0; k < windows; k++)
		idx[k] = (uint16_t)(ter[extract(own, k)] + 2 * ter[extract(opp, k)]);
	int d = 24 - __builtin_popcount(own | opp);  /* 0 .. 22 */
	d = d < 0 ? 0 : d > 22 ? 22 : d;
	int ph = d / PAT_SEG;
	if (ph > PAT_PHASES - 2)
		ph = PAT_PHASES - 2;
	*phase = ph;
	*t = d - ph * PAT_SEG;
}

void pattern_king_indices(const pk_pos *p, uint32_t kidx[PAT_WINDOWS_BASIC])
{
	uint32_t own = (uint32_t)p->side[p->stm], opp = (uint32_t)p->side[!p->stm], kings = (uint32_t)p->kings;
	if (p->stm == PK_WHITE) {
		own = bb_reverse32(own);
		opp = bb_reverse32(opp);
		kings = bb_reverse32(kings);
	}
	uint32_t om = own & ~kings, pm = opp & ~kings, ok = own & kings, pk = opp & kings;
	for (int k = 0; k < PAT_WINDOWS_BASIC; k++) {
		kidx[k] = quin[extract(om, k)] + 2 * quin[extract(pm, k)] + 3 * quin[extract(ok, k)] + 4 * quin[extract(pk, k)];
	}
}

int pattern_eval(const pk_patterns *pt, const pk_pos *p)
{
	uint16_t idx[PAT_TABLES];
	int ph, t, nw = pt->windows;
	pattern_indices(p, nw, pt->material, idx, &ph, &t);
	const int16_t (*a)[PAT_INDEX] = pt->w[ph], (*b)[PAT_INDEX] = pt->w[ph + 1];
	int s0 = 0, s1 = 0;
	if (pt->material) {
		s0 = a[PAT_MATERIAL][idx[PAT_MATERIAL]];
		s1 = b[PAT_MATERIAL][idx[PAT_MATERIAL]];
	}
	for (int k = 0; k < nw; k++)
		s0 += a[k][idx[k]];
	if (t)
		for (int k = 0; k < nw; k++)
			s1 += b[k][idx[k]];
	/* the endgame table, on the nine windows with kings told from men */
	if (pt->end_pieces && __builtin_popcount((uint32_t)(p->side[0] | p->side[1])) <= pt->end_pieces) {
		uint32_t kidx[PAT_WINDOWS_BASIC];
		pattern_king_indices(p, kidx);
		const int16_t (*ea)[PAT_KINDEX] = pt->e[ph], (*eb)[PAT_KINDEX] = pt->e[ph + 1];
		for (int k = 0; k < PAT_WINDOWS_BASIC; k++)
			s0 += ea[k][kidx[k]];
		if (t)
			for (int k = 0; k < PAT_WINDOWS_BASIC; k++)
				s1 += eb[k][kidx[k]];
	}
	return t ? (s0 * (PAT_SEG - t) + s1 * t) / PAT_SEG : s0;
}

void patterns_checksum(pk_patterns *pt)
{
	pt->wi_ready = false;   /* (vpatterns_checksum builds it) */
	uint32_t h = 2166136261u;
	long nz = 0;
	if (pt->windows != PAT_WINDOWS)
		pt->windows = PAT_WINDOWS_BASIC;
	pt->material = pt->material != 0;
	/* over the tables used only: a file of nine windows keeps its name */
	for (int ph = 0; ph < PAT_PHASES; ph++)
		for (int k = 0; k < PAT_TABLES; k++)
			for (int i = 0; i < PAT_INDEX && (k < pt->windows || (k == PAT_MATERIAL && pt->material)); i++) {
				uint16_t v = (uint16_t)pt->w[ph][k][i];
				nz += v != 0;
				h = (h ^ (v & 0xFF)) * 16777619u;
				h = (h ^ (v >> 8)) * 16777619u;
			}
	/* the endgame table, when there is one: a file without it keeps its name */
	if (pt->end_pieces < PAT_END_MIN || pt->end_pieces > PAT_END_MAX)
		pt->end_pieces = 0;
	if (pt->end_pieces) {
		h = (h ^ (uint32_t)pt->end_pieces) * 16777619u;
		for (int ph = 0; ph < PAT_PHASES; ph++)
			for (int k = 0; k < PAT_WINDOWS_BASIC; k++)
				for (int i = 0; i < PAT_KINDEX; i++) {
					uint16_t v = (uint16_t)pt->e[ph][k][i];
					nz += v != 0;
					h = (h ^ (v & 0xFF)) * 16777619u;
					h = (h ^ (v >> 8)) * 16777619u;
				}
	}
	pt->checksum = h;
	pt->nonzero = nz;
}

/* A format 4 endgame table (three states a square) as one of five: each state of five
 * reads the weight of its three-state twin (a man or a king: a piece). */
static void endgame_from_format4(pk_patterns *pt, const int16_t *e3)
{
	for (uint32_t c = 0; c < PAT_KINDEX; c++) {
		uint32_t x = c, twin = 0, p3 = 1;
		for (int i = 0; i < PAT_CELLS; i++, x /= 5, p3 *= 3)
			twin += (x % 5 == 0 ? 0 : x % 5 == 1 || x % 5 == 3 ? 1 : 2) * p3;
		for (int ph = 0; ph < PAT_PHASES; ph++)
			for (int k = 0; k < PAT_WINDOWS_BASIC; k++)
				pt->e[ph][k][c] = e3[((size_t)ph * PAT_WINDOWS_BASIC + k) * PAT_INDEX + twin];
	}
}

static int parse_text(const char *text, pk_patterns *pt, int16_t **e3, char *err, size_t errsize);

int patterns_parse(const char *text, pk_patterns *pt, char *err, size_t errsize)
{
	int16_t *e3 = NULL;
	int rc = parse_text(text, pt, &e3, err, errsize);
	if (rc == 0 && e3) {
		endgame_from_format4(pt, e3);
		patterns_checksum(pt);
	}
	free(e3);
	return rc;
}

/* patterns_parse; a format 4 endgame table into *e3 (malloc'ed), for the caller to spread. */
static int parse_text(const char *text, pk_patterns *pt, int16_t **e3, char *err, size_t errsize)
{
	/* all but the endgame table (14 MB), cleared when a file has one */
	memset(pt->w, 0, sizeof pt->w);
	pt->end_pieces = 0;
	pt->checksum = 0;
	pt->nonzero = 0;
	pt->windows = 0;
	pt->material = 0;
	int line = 0, version = 0, phases = 0, windows = 0, material = 0, endgame = 0;
	bool header = false;
	for (const char *s = text; *s;) {
		line++;
		const char *end = strchr(s, '\n');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		char buf[160];
		const char *q = s;
		while (q < s + len && (*q == ' ' || *q == '\t'))
			q++;
		if (q < s + len && *q == '#') {   /* a comment, however long */
			s += len + (end ? 1 : 0);
			continue;
		}
		if (len >= sizeof buf) {
			snprintf(err, errsize, "line %d: longer than %zu bytes", line, sizeof buf - 1);
			return -1;
		}
		memcpy(buf, s, len);
		buf[len] = 0;
		s += len + (end ? 1 : 0);
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char word[32];
		if (!header) {
			if (sscanf(buf, "%31s", word) != 1)
				continue;
			if (sscanf(buf, "pdnkit-patterns %d", &version) != 1 || version < 1 || version > PAT_FORMAT) {
				snprintf(err, errsize, "line %d: not a pattern file of format 1 to %d (\"pdnkit-patterns %d\" first)",
					 line, PAT_FORMAT, PAT_FORMAT);
				return -1;
			}
			header = true;
			phases = version == 1 ? 2 : 0;
			windows = version < 3 ? PAT_WINDOWS_BASIC : 0;
			continue;
		}
		int ph, k, i, v, nph, nwin;
		char extra;
		if (sscanf(buf, " windows %d %c", &nwin, &extra) == 1) {
			if (version < 3 || windows || (nwin != PAT_WINDOWS_BASIC && nwin != PAT_WINDOWS)) {
				snprintf(err, errsize, "line %d: %s", line, version < 3 ? "\"windows\" in a file of format 1 or 2" :
					 windows ? "a second \"windows\" line" : "windows must be 9 or 25");
				return -1;
			}
			windows = nwin;
			continue;
		}
		char tail[8];
		if (sscanf(buf, " %31s", word) == 1 && strcmp(word, "material") == 0) {
			if (version < 3 || material || sscanf(buf, " %*s %7s", tail) == 1) {
				snprintf(err, errsize, "line %d: %s", line, version < 3 ? "\"material\" in a file of format 1 or 2" :
					 material ? "a second \"material\" line" : "\"material\" takes nothing after it");
				return -1;
			}
			material = 1;
			continue;
		}
		int nend;
		if (sscanf(buf, " endgame %d %c", &nend, &extra) == 1) {
			if (version < 4 || endgame || nend < PAT_END_MIN || nend > PAT_END_MAX) {
				snprintf(err, errsize, "line %d: %s", line, version < 4 ? "\"endgame\" in a file of format 1 to 3" :
					 endgame ? "a second \"endgame\" line" : "endgame must be a number of pieces from 3 to 16");
				return -1;
			}
			endgame = nend;
			memset(pt->e, 0, sizeof pt->e);
			continue;
		}
		if (sscanf(buf, " %31s", word) == 1 && strcmp(word, "e") == 0) {
			if (sscanf(buf, " e %d %d %d %d %c", &ph, &k, &i, &v, &extra) != 4 || !endgame || !phases || ph < 0 || ph >= phases || k < 0 || k >= PAT_WINDOWS_BASIC || i < 0 ||
			    i >= (version == 4 ? PAT_INDEX : PAT_KINDEX) || v < -30000 || v > 30000) {
				snprintf(err, errsize, "line %d: %s (INDEX 0-%d)", line, !endgame ? "an endgame weight before the \"endgame\" line" :
					 !phases ? "a weight before the \"phases\" line" : "expected e PHASE WINDOW (0-8) INDEX VALUE",
					 (version == 4 ? PAT_INDEX : PAT_KINDEX) - 1);
				return -1;
			}
			if (version == 4) {
				if (!*e3 && !(*e3 = calloc((size_t)PAT_PHASES * PAT_WINDOWS_BASIC * PAT_INDEX, sizeof **e3))) {
					snprintf(err, errsize, "line %d: out of memory", line);
					return -1;
				}
				(*e3)[((size_t)ph * PAT_WINDOWS_BASIC + k) * PAT_INDEX + i] = (int16_t)v;
			} else {
				pt->e[ph][k][i] = (int16_t)v;
			}
			continue;
		}
		if (sscanf(buf, " phases %d %c", &nph, &extra) == 1) {
			if (version < 2 || nph != PAT_PHASES || phases) {
				snprintf(err, errsize, "line %d: %s", line, phases ? "a second \"phases\" line" :
					 version < 2 ? "\"phases\" in a format 1 file" : "another number of phases than this program's");
				return -1;
			}
			phases = nph;
			continue;
		}
		int n = sscanf(buf, "%d %d %d %d %c", &ph, &k, &i, &v, &extra);
		if (n <= 0)
			continue;
		if (!phases || !windows) {
			snprintf(err, errsize, "line %d: a weight before the \"%s\" line", line, !phases ? "phases" : "windows");
			return -1;
		}
		if (n != 4 || ph < 0 || ph >= phases || k < 0 || (k >= windows && !(material && k == PAT_MATERIAL)) ||
		    i < 0 || i >= PAT_INDEX || v < -30000 || v > 30000) {
			snprintf(err, errsize, "line %d: expected PHASE (0-%d) WINDOW (0-%d%s) INDEX (0-%d) VALUE", line,
				 phases - 1, windows - 1, material && windows < PAT_MATERIAL ? ", 25" : "", PAT_INDEX - 1);
			return -1;
		}
		if (version == 1) {
			/* two phases, at 24 and 2 pieces: each of ours gets its share of the line */
			for (int ph2 = 0; ph2 < PAT_PHASES; ph2++) {
				int share = ph == 0 ? (PAT_PHASES - 1 - ph2) : ph2;
				int add = (int)lround((double)v * share / (PAT_PHASES - 1));
				pt->w[ph2][k][i] = (int16_t)(pt->w[ph2][k][i] + add);
			}
		} else {
			pt->w[ph][k][i] = (int16_t)v;
		}
	}
	if (!header) {
		snprintf(err, errsize, "empty: no \"pdnkit-patterns %d\" line", PAT_FORMAT);
		return -1;
	}
	pt->windows = windows ? windows : PAT_WINDOWS_BASIC;
	pt->material = material;
	pt->end_pieces = endgame;
	patterns_checksum(pt);
	return 0;
}

/* One weight's line onto out, grown as needed; NULL (out freed) when out of memory. */
static char *put_weight(char *out, size_t *cap, size_t *len, const char *prefix, int ph, int k, int i, int v)
{
	if (*cap - *len < 64) {
		char *n = realloc(out, *cap *= 2);
		if (!n) {
			free(out);
			return NULL;
		}
		out = n;
	}
	*len += (size_t)snprintf(out + *len, *cap - *len, "%s%d %d %d %d\n", prefix, ph, k, i, v);
	return out;
}

char *patterns_format(const pk_patterns *pt, const char *comment)
{
	size_t cap = 4096 + (size_t)PAT_PHASES * PAT_TABLES * PAT_INDEX * 4, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	int nwin = pt->windows == PAT_WINDOWS ? PAT_WINDOWS : PAT_WINDOWS_BASIC;
	bool end = pt->end_pieces >= PAT_END_MIN && pt->end_pieces <= PAT_END_MAX;
	bool v2 = nwin == PAT_WINDOWS_BASIC && !pt->material && !end;
	len += (size_t)snprintf(out + len, cap - len, "pdnkit-patterns %d\n# %s\n# PHASE WINDOW INDEX VALUE (hundredths of a man; "
				"phase q at 24 - %d q pieces)%s\nphases %d\n", v2 ? 2 : end ? 5 : 3, comment ? comment : "",
				PAT_SEG, end ? "; e PHASE WINDOW INDEX VALUE: the endgame table" : "", PAT_PHASES);
	if (!v2)
		len += (size_t)snprintf(out + len, cap - len, "windows %d\n%s", nwin, pt->material ? "material\n" : "");
	if (end)
		len += (size_t)snprintf(out + len, cap - len, "endgame %d\n", pt->end_pieces);
	for (int ph = 0; ph < PAT_PHASES; ph++)
		for (int k = 0; k < PAT_TABLES; k++)
			for (int i = 0; i < PAT_INDEX; i++) {
				if (!pt->w[ph][k][i] || (k >= nwin && !(k == PAT_MATERIAL && pt->material)))
					continue;
				if (!(out = put_weight(out, &cap, &len, "", ph, k, i, pt->w[ph][k][i])))
					return NULL;
			}
	for (int ph = 0; ph < PAT_PHASES && end; ph++)
		for (int k = 0; k < PAT_WINDOWS_BASIC; k++)
			for (int i = 0; i < PAT_KINDEX; i++)
				if (pt->e[ph][k][i] && !(out = put_weight(out, &cap, &len, "e ", ph, k, i, pt->e[ph][k][i])))
					return NULL;
	return out;
}

/* book/patterns.txt as text, generated at build time. */
extern const char eval_patterns_text[];

const pk_patterns *patterns_builtin(void)
{
	/* static storage, not the heap: a library (libpdnkit-cb.so) that is unloaded
	 * leaves nothing behind */
	static pk_patterns pt;
	static int state;             /* 0 not read, 1 read and used, 2 none */
	if (!state) {
		char err[200];
		state = patterns_parse(eval_patterns_text, &pt, err, sizeof err) == 0 && pt.nonzero > 0 ? 1 : 2;
	}
	return state == 1 ? &pt : NULL;
}
