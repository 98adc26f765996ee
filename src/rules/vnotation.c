/* The variants' notation: moves and squares as text, FEN written and read. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules/pos.h"
#include "rules/variant.h"

static int colour_of(int piece) { return piece == VP_WMAN || piece == VP_WKING ? PK_WHITE : PK_BLACK; }
static bool is_king(int piece) { return piece == VP_WKING || piece == VP_BKING; }

int vmove_format(const pk_vmove *m, bool full, char *buf, size_t size)
{
	if (m->ncap == 0)
		return snprintf(buf, size, "%d-%d", m->from, m->to);
	int k = snprintf(buf, size, "%d", m->from);
	for (int i = 0; i < m->nland && (size_t)k < size; i++)
		if (full || i == m->nland - 1)
			k += snprintf(buf + k, size - (size_t)k, "x%d", m->land[i]);
	return k;
}

int vsquare_name(const pk_variant *v, int sq, char *buf, size_t size)
{
	if (!v->alphanumeric)
		return snprintf(buf, size, "%d", sq);
	int r, c;
	variant_square_rc(v, sq, &r, &c);
	return snprintf(buf, size, "%c%d", 'a' + c, v->rows - r);
}

int vmove_text(const pk_variant *v, const pk_vmove *m, bool full, char *buf, size_t size)
{
	if (!v->alphanumeric)
		return vmove_format(m, full, buf, size);
	char a[8], b[8];
	vsquare_name(v, m->from, a, sizeof a);
	if (m->ncap == 0) {
		vsquare_name(v, m->to, b, sizeof b);
		return snprintf(buf, size, "%s-%s", a, b);
	}
	int k = snprintf(buf, size, "%s", a);
	for (int i = 0; i < m->nland && (size_t)k < size; i++)
		if (full || i == m->nland - 1) {
			vsquare_name(v, m->land[i], b, sizeof b);
			k += snprintf(buf + k, size - (size_t)k, ":%s", b);
		}
	return k;
}

int vfen_format(const pk_vpos *p, char *buf, size_t size) { return vfen_format_as(p, false, buf, size); }

int vfen_format_as(const pk_vpos *p, bool numbers, char *buf, size_t size)
{
	int n = variant_squares(p->v);
	size_t k = (size_t)snprintf(buf, size, "%c", p->stm == PK_WHITE ? 'W' : 'B');
	for (int side = 0; side < 2; side++) {
		int colour = side == 0 ? PK_WHITE : PK_BLACK;
		k += (size_t)snprintf(buf + k, size > k ? size - k : 0, ":%c", colour == PK_WHITE ? 'W' : 'B');
		bool first = true;
		for (int s = 1; s <= n; s++) {
			int piece = p->sq[s];
			if (piece == VP_EMPTY || colour_of(piece) != colour)
				continue;
			char name[8];
			if (numbers)
				snprintf(name, sizeof name, "%d", s);
			else
				vsquare_name(p->v, s, name, sizeof name);
			k += (size_t)snprintf(buf + k, size > k ? size - k : 0, "%s%s%s", first ? "" : ",",
					      is_king(piece) ? "K" : "", name);
			first = false;
		}
	}
	return (int)k;
}

int vfen_parse(const pk_variant *v, const char *s, pk_vpos *p, char *err, size_t errsize)
{
	int n = variant_squares(v);
	while (isspace((unsigned char)*s) || *s == '"')
		s++;
	if (*s != 'W' && *s != 'B') {
		snprintf(err, errsize, "the side to move must be W or B");
		return -1;
	}
	vpos_clear(v, p, *s == 'W' ? PK_WHITE : PK_BLACK);
	s++;
	while (*s == ':') {
		s++;
		if (*s != 'W' && *s != 'B') {
			snprintf(err, errsize, "a colour must be W or B, not '%c'", *s ? *s : '?');
			return -1;
		}
		int colour = *s == 'W' ? PK_WHITE : PK_BLACK;
		s++;
		while (*s && *s != ':' && *s != '"' && *s != '.' && !isspace((unsigned char)*s)) {
			bool king = false;
			if (*s == 'K') {
				king = true;
				s++;
			}
			char *end;
			long a, b;
			if (*s >= 'a' && *s <= 'z') {
				/* a square by file and rank, "c3", as the alphanumeric notations write it */
				int col = *s - 'a';
				long rank = strtol(s + 1, &end, 10);
				if (end == s + 1 || !isdigit((unsigned char)s[1])) {
					snprintf(err, errsize, "a square such as c3 is expected at '%.10s'", s);
					return -1;
				}
				int sq = rank >= 1 && rank <= v->rows ? variant_rc_square(v, v->rows - (int)rank, col) : 0;
				if (!sq) {
					snprintf(err, errsize, "%.*s is not a playable square of %s", (int)(end - s), s, v->name);
					return -1;
				}
				a = b = sq;
				s = end;
				if (*s == '-') {
					snprintf(err, errsize, "a range of squares is written with numbers (31-50), not with file and rank");
					return -1;
				}
			} else {
				a = b = strtol(s, &end, 10);
				if (end == s) {
					snprintf(err, errsize, "a square (a number, or file and rank such as c3) is expected at '%.10s'", s);
					return -1;
				}
				s = end;
				if (*s == '-') {
					b = strtol(s + 1, &end, 10);
					if (end == s + 1) {
						snprintf(err, errsize, "a range needs its last square");
						return -1;
					}
					s = end;
				}
			}
			if (a < 1 || b > n || a > b) {
				snprintf(err, errsize, "square %ld is out of range 1..%d", a < 1 || a > n ? a : b, n);
				return -1;
			}
			for (long q = a; q <= b; q++) {
				if (p->sq[q] != VP_EMPTY) {
					char name[8];
					vsquare_name(v, (int)q, name, sizeof name);
					snprintf(err, errsize, "square %s is given twice", name);
					return -1;
				}
				p->sq[q] = (uint8_t)(colour == PK_WHITE ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN));
			}
			if (*s == ',')
				s++;
		}
	}
	while (*s == '"' || *s == '.' || isspace((unsigned char)*s))
		s++;
	if (*s) {
		snprintf(err, errsize, "unexpected '%.10s'", s);
		return -1;
	}
	return 0;
}

int vmove_pdn(const pk_vpos *p, const pk_vmove *m, char *buf, size_t size)
{
	bool full = false;
	if (m->ncap) {
		pk_vmovelist *ml = malloc(sizeof *ml);
		int n = ml ? vgen(p, ml) : 0;
		for (int i = 0; i < n && !full; i++)
			full = ml->m[i].from == m->from && ml->m[i].to == m->to && !vmove_same(&ml->m[i], m);
		free(ml);
		if (!ml)
			full = true;   /* out of memory: the whole path is never wrong */
	}
	return vmove_text(p->v, m, full, buf, size);
}
