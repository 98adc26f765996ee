/* Moves: comparison and PDN formatting. */
#include <stdio.h>
#include <string.h>
#include "rules/move.h"

bool move_same_effect(const pk_move *a, const pk_move *b)
{
	if (!a->nland || !b->nland)   /* an empty slot (no move yet) matches nothing */
		return false;
	return a->from == b->from && move_to(a) == move_to(b) && a->captured == b->captured;
}

bool move_equal(const pk_move *a, const pk_move *b)
{
	return a->from == b->from && a->nland == b->nland && a->captured == b->captured &&
	       memcmp(a->land, b->land, a->nland) == 0;
}

int move_format(const pk_move *m, bool full_path, char *buf, size_t size)
{
	char sep = move_is_capture(m) ? 'x' : '-';
	int n = snprintf(buf, size, "%d", m->from + 1);
	int first = (full_path && move_is_capture(m)) ? 0 : m->nland - 1;
	for (int i = first; i < m->nland && n >= 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%c%d", sep, m->land[i] + 1);
	return n;
}
