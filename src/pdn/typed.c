/* A move typed by a person at a prompt, read against the legal moves: what it can mean,
 * or why it cannot be played and what was probably meant (as validate says it). */
#include <stdio.h>
#include <string.h>
#include "pdn/replay_int.h"

/* Keeps one move of each effect among the candidates idx[0..n). */
static int distinct(const pk_movelist *ml, const int *idx, int n, pk_move *out, int max)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		bool seen = false;
		for (int j = 0; j < k && !seen; j++)
			seen = move_same_effect(&out[j], &ml->m[idx[i]]);
		if (!seen && k < max)
			out[k++] = ml->m[idx[i]];
	}
	return k;
}

int replay_read_move(const pk_pos *p, const char *text, pk_move *out, int max, char *why, size_t size)
{
	pk_written w;
	char reason[120];
	why[0] = 0;
	while (*text == ' ' || *text == '\t')
		text++;
	if (written_parse(text, &w, reason, sizeof reason) < 0) {
		snprintf(why, size, "%s is not a move (%s)", text, reason);
		return 0;
	}
	if (w.glued) {
		snprintf(why, size, "%s is not a move (unexpected \"%s\")", text, w.glued);
		return 0;
	}
	if (w.n < 2) {
		snprintf(why, size, "%s is not a move: give two squares, as in 11-15 or 22x15", text);
		return 0;
	}
	pk_movelist ml;
	gen_moves(p, &ml);
	int idx[PK_MAX_MOVES];
	int n = rp_find_matches(&ml, w.sq, w.n, idx, PK_MAX_MOVES);
	if (n > 0)
		return distinct(&ml, idx, n, out, max);
	/* A jump written short of its end: every way it can go on. */
	n = rp_find_extensions(&ml, w.sq, w.n, idx, PK_MAX_MOVES, false);
	if (n > 0)
		return distinct(&ml, idx, n, out, max);
	pk_finding f;
	memset(&f, 0, sizeof f);
	char detail[160];
	rp_explain(p, &w, detail, sizeof detail);
	bool must_capture = ml.n > 0 && move_is_capture(&ml.m[0]);
	if (must_capture && !detail[0]) {
		snprintf(f.message, sizeof f.message, "%s is not legal: a capture is compulsory", text);
		char buf[PK_MOVE_STRLEN];
		for (int i = 0; i < ml.n && f.nsuggest < PK_MAX_SUGGEST; i++) {
			rp_fmt_move(&ml.m[i], false, buf);
			finding_suggest(&f, buf, "a compulsory capture");
		}
	} else {
		snprintf(f.message, sizeof f.message, "%s is not legal here%s%s%s", text, detail[0] ? " (" : "", detail,
			 detail[0] ? ")" : "");
		rp_suggest_for_illegal(&ml, p, &w, &f);
	}
	rp_append_suggestions(&f);
	snprintf(why, size, "%s", f.message);
	return 0;
}
