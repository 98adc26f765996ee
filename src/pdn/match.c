/* Matching written squares to the legal moves of a position. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/replay_int.h"

void rp_fmt_move(const pk_move *m, bool full, char *buf)
{
	move_format(m, full, buf, PK_MOVE_STRLEN);
}

/* Candidates of ml matching the written squares exactly. */
int rp_find_matches(const pk_movelist *ml, const int *sq, int n, int *idx, int max)
{
	int k = 0;
	for (int i = 0; i < ml->n; i++) {
		const pk_move *m = &ml->m[i];
		if (m->from + 1 != sq[0])
			continue;
		bool ok;
		if (n == 2)
			ok = move_to(m) + 1 == sq[1];
		else {
			ok = m->nland == n - 1;
			for (int j = 0; ok && j < m->nland; j++)
				ok = m->land[j] + 1 == sq[j + 1];
		}
		if (ok && k < max)
			idx[k++] = i;
	}
	return k;
}

/* Captures whose path begins with the written squares (n of them, the first being the
 * from-square) and goes further; with or_equal, also those that end there. */
int rp_find_extensions(const pk_movelist *ml, const int *sq, int n, int *idx, int max, bool or_equal)
{
	int k = 0;
	for (int i = 0; i < ml->n; i++) {
		const pk_move *m = &ml->m[i];
		if (m->from + 1 != sq[0] || m->nland < n - (or_equal ? 1 : 0) || !m->captured)
			continue;
		bool ok = true;
		for (int j = 1; ok && j < n; j++)
			ok = m->land[j - 1] + 1 == sq[j];
		if (ok && k < max)
			idx[k++] = i;
	}
	return k;
}

