/* Parsing a move token's text. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "pdn/written.h"

#define IS_DIGIT(c) ((unsigned)((c) - '0') < 10u)


/* A square written as file letter and rank on v's board ("c3"): its number, p past it;
 * 0 when it is off the board or not a playing square. */
static int letter_square(const pk_variant *v, const char **p)
{
	int col = tolower((unsigned char)**p) - 'a';
	long rank = 0;
	const char *q = *p + 1;
	while (IS_DIGIT((unsigned char)*q)) {
		if (rank < 1000)
			rank = rank * 10 + (*q - '0');
		q++;
	}
	*p = q;
	if (col < 0 || col >= v->cols || rank < 1 || rank > v->rows)
		return 0;
	return variant_rc_square(v, v->rows - (int)rank, col);
}

/* Inlined in both readers below, so that English draughts' (v NULL) pays nothing for
 * the other boards. */
static inline __attribute__((always_inline)) int parse(const pk_variant *v, const char *s, pk_written *w, char *why,
						       int whylen)
{
	w->n = 0;
	w->sep = 0;
	w->mixed = w->nosep = false;
	w->marks[0] = 0;
	w->glued = NULL;
	const char *p = s;
	if (!IS_DIGIT((unsigned char)*p) && !v && isalpha((unsigned char)p[0]) && IS_DIGIT((unsigned char)p[1])) {
		snprintf(why, (size_t)whylen, "alphanumeric square '%c%c' is not English draughts notation", p[0], p[1]);
		return -1;
	}
	if (!IS_DIGIT((unsigned char)*p) && !(v && isalpha((unsigned char)p[0]) && IS_DIGIT((unsigned char)p[1]))) {
		snprintf(why, (size_t)whylen, "'%s' is not a move", s);
		return -1;
	}
	for (;;) {
		const char *start = p;
		long x = 0;
		if (v && !IS_DIGIT((unsigned char)*p) && isalpha((unsigned char)p[0]) && IS_DIGIT((unsigned char)p[1])) {
			x = letter_square(v, &p);
			if (!x) {
				snprintf(why, (size_t)whylen, "%.*s is not a playing square of %s", (int)(p - start), start,
					 v->name);
				return -1;
			}
			start = p;     /* a letter square is never digits without a separator */
		}
		while (IS_DIGIT((unsigned char)*p)) {
			if (x < 1000)
				x = x * 10 + (*p - '0');
			p++;
		}
		bool together = w->n == 0 && p - start >= 3 && p - start <= 4 && *p != '-' && *p != 'x' && *p != 'X' &&
				*p != ':';
		if (v && p > start && !together && (x < 1 || x > variant_squares(v))) {
			snprintf(why, (size_t)whylen, "square %ld does not exist: %s has %d", x, v->name, variant_squares(v));
			return -1;
		}
		if (p == start && !(v && x)) {
			snprintf(why, (size_t)whylen, "square number missing after '%c'", w->sep ? w->sep : '-');
			return -1;
		}
		if (w->n == WM_MAX_SQUARES) {
			snprintf(why, (size_t)whylen, "more than %d squares in one move", WM_MAX_SQUARES);
			return -1;
		}
		if (together) {
			w->nosep = true;
			memcpy(w->digits, start, (size_t)(p - start));
			w->digits[p - start] = 0;
		}
		w->sq[w->n++] = (int)x;
		char c = *p;
		if (c == '-' || c == 'x' || c == 'X' || c == ':') {
			char sep = c == '-' ? '-' : 'x';
			if (w->sep && w->sep != sep)
				w->mixed = true;
			if (!w->sep)
				w->sep = sep;
			p++;
			if (!v && !IS_DIGIT((unsigned char)*p) && isalpha((unsigned char)p[0]) && IS_DIGIT((unsigned char)p[1])) {
				snprintf(why, (size_t)whylen, "alphanumeric square '%c%c' is not English draughts notation", p[0], p[1]);
				return -1;
			}
			continue;
		}
		break;
	}
	if (w->n == 1 && !w->nosep) {
		snprintf(why, (size_t)whylen, "'%s' has only one square", s);
		return -1;
	}
	size_t k = 0;
	while ((*p == '!' || *p == '?') && k < sizeof w->marks - 1)
		w->marks[k++] = *p++;
	w->marks[k] = 0;
	while (*p == '.' || *p == ',')   /* "9-14," and "27-32." occur in prose-like records */
		p++;
	if (*p)
		w->glued = p;
	return 0;
}

int written_parse(const char *s, pk_written *w, char *why, int whylen) { return parse(NULL, s, w, why, whylen); }

int written_parse_on(const pk_variant *v, const char *s, pk_written *w, char *why, int whylen)
{
	return v ? parse(v, s, w, why, whylen) : parse(NULL, s, w, why, whylen);
}

int written_splits(const pk_written *w, int nsquares, int out[][2], int max)
{
	int n = 0;
	if (!w->nosep)
		return 0;
	size_t dl = strlen(w->digits);
	for (size_t cut = 1; cut < dl && n < max; cut++) {
		if (w->digits[cut] == '0')   /* "1105" is 1-105 or 11-05 or 110-5: a square has no leading zero */
			continue;
		int a = 0, b = 0;
		for (size_t i = 0; i < cut; i++)
			a = a * 10 + (w->digits[i] - '0');
		for (size_t i = cut; i < dl; i++)
			b = b * 10 + (w->digits[i] - '0');
		if (a < 1 || a > nsquares || b < 1 || b > nsquares)
			continue;
		out[n][0] = a;
		out[n][1] = b;
		n++;
	}
	return n;
}
