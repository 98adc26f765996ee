/* Parsing a move token's text. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "pdn/written.h"

#define IS_DIGIT(c) ((unsigned)((c) - '0') < 10u)

int written_parse(const char *s, pk_written *w, char *why, int whylen)
{
	w->n = 0;
	w->sep = 0;
	w->mixed = w->nosep = false;
	w->marks[0] = 0;
	w->glued = NULL;
	const char *p = s;
	if (isalpha((unsigned char)p[0]) && IS_DIGIT((unsigned char)p[1])) {
		snprintf(why, (size_t)whylen, "alphanumeric square '%c%c' is not English draughts notation", p[0], p[1]);
		return -1;
	}
	if (!IS_DIGIT((unsigned char)*p)) {
		snprintf(why, (size_t)whylen, "'%s' is not a move", s);
		return -1;
	}
	for (;;) {
		const char *start = p;
		long v = 0;
		while (IS_DIGIT((unsigned char)*p)) {
			if (v < 1000)
				v = v * 10 + (*p - '0');
			p++;
		}
		if (p == start) {
			snprintf(why, (size_t)whylen, "square number missing after '%c'", w->sep ? w->sep : '-');
			return -1;
		}
		if (w->n == WM_MAX_SQUARES) {
			snprintf(why, (size_t)whylen, "more than %d squares in one move", WM_MAX_SQUARES);
			return -1;
		}
		if (w->n == 0 && p - start >= 3 && p - start <= 4 && *p != '-' && *p != 'x' && *p != 'X' && *p != ':') {
			w->nosep = true;
			memcpy(w->digits, start, (size_t)(p - start));
			w->digits[p - start] = 0;
		}
		w->sq[w->n++] = (int)v;
		char c = *p;
		if (c == '-' || c == 'x' || c == 'X' || c == ':') {
			char sep = c == '-' ? '-' : 'x';
			if (w->sep && w->sep != sep)
				w->mixed = true;
			if (!w->sep)
				w->sep = sep;
			p++;
			if (isalpha((unsigned char)p[0]) && IS_DIGIT((unsigned char)p[1])) {
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
