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

/* Reading a game's move tokens, for the one driver whatever the board. */
const char *rp_move_text(const pk_game *g, int i, char *buf, size_t size, int *last)
{
	const char *t = game_str(g, g->els[i].off);
	size_t len = strlen(t);
	*last = i;
	/* "1- 7": a move written apart; the next element is its end */
	char end = len ? t[len - 1] : 0;
	if (len >= 32 || (end != '-' && end != 'x' && end != ':'))
		return t;
	for (int j = i + 1; j < g->nel; j++) {
		const pk_el *f = &g->els[j];
		if (f->depth != 0)
			continue;
		const char *u = game_str(g, f->off);
		if ((f->kind == EL_MOVE || f->kind == EL_NUMBER) && strlen(u) < 16 && u[0] &&
		    strspn(u, "0123456789") == strlen(u)) {
			snprintf(buf, size, "%s%s", t, u);
			*last = j;
			return buf;
		}
		break;
	}
	return t;
}

bool rp_place_holder(const pk_game *g, int i)
{
	const char *t = game_str(g, g->els[i].off);
	return t[0] == '.' && strspn(t, ".") == strlen(t);
}

int rp_next_move(const pk_game *g, const pk_variant *v, int *i, char *text, size_t size, pk_written *w, char *why,
		 int whylen)
{
	for (; *i < g->nel; (*i)++) {
		const pk_el *e = &g->els[*i];
		if (e->depth != 0 || e->kind != EL_MOVE || rp_place_holder(g, *i))
			continue;
		const char *t = rp_move_text(g, *i, text, size, i);
		if (t != text)
			snprintf(text, size, "%s", t);
		return written_parse_on(v, text, w, why, whylen) < 0 ? -1 : 1;
	}
	return 0;
}
