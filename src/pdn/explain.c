/* Explaining an illegal move: why it cannot be played, and what was probably meant. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/replay_int.h"

static const char *side_name(int stm) { return stm == PK_BLACK ? "Black" : "White"; }

static const char *piece_desc(const pk_pos *p, int sq)
{
	int c;
	bool k;
	if (sq < 1 || sq > 32 || !pos_piece_at(p, sq, &c, &k))
		return NULL;
	if (c == PK_BLACK)
		return k ? "a Black king" : "a Black man";
	return k ? "a White king" : "a White man";
}

/* Why a move from a to b is impossible, in a few words, or NULL. */
void rp_explain(const pk_pos *p, const pk_written *w, char *buf, size_t size)
{
	buf[0] = 0;
	for (int i = 0; i < w->n; i++)
		if (w->sq[i] < 1 || w->sq[i] > 32) {
			snprintf(buf, size, "square %d does not exist", w->sq[i]);
			return;
		}
	int c;
	bool k;
	int a = w->sq[0], b = w->sq[w->n - 1];
	if (!pos_piece_at(p, a, &c, &k)) {
		snprintf(buf, size, "square %d is empty", a);
		return;
	}
	if (c != p->stm) {
		snprintf(buf, size, "square %d holds %s and %s is to move", a, piece_desc(p, a), side_name(p->stm));
		return;
	}
	if (a != b && pos_piece_at(p, b, &c, &k)) {
		snprintf(buf, size, "square %d is occupied by %s", b, piece_desc(p, b));
		return;
	}
	if (!k && w->n == 2) {
		pos_piece_at(p, a, &c, &k);
		if (!k && ((p->stm == PK_BLACK && b < a) || (p->stm == PK_WHITE && b > a))) {
			snprintf(buf, size, "a man cannot move backwards");
			return;
		}
	}
}

/* Does this text, read as a move, name a legal move? Writes it in short form. */
static bool legal_text(const pk_movelist *ml, const char *text, char *out)
{
	pk_written w;
	char why[80];
	if (written_parse(text, &w, why, sizeof why) < 0 || w.n < 2)
		return false;
	int idx[2];
	if (rp_find_matches(ml, w.sq, w.n, idx, 2) == 0)
		return false;
	rp_fmt_move(&ml->m[idx[0]], w.n > 2, out);
	return true;
}

/* The text with only the square numbers and separators of w (drops marks and glue). */
static int core_text(const pk_written *w, char *buf, size_t size)
{
	int n = 0;
	for (int i = 0; i < w->n && n >= 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%s%d", i ? (w->sep == 'x' ? "x" : "-") : "", w->sq[i]);
	return n;
}

void rp_suggest_for_illegal(const pk_movelist *ml, const pk_pos *pos, const pk_written *w, pk_finding *f)
{
	char buf[64], cand[PK_MOVE_STRLEN];
	if (!f)
		return;
	/* 1. squares reversed */
	if (w->n == 2) {
		int rev[2] = { w->sq[1], w->sq[0] }, idx[1];
		if (rp_find_matches(ml, rev, 2, idx, 1)) {
			rp_fmt_move(&ml->m[idx[0]], false, cand);
			finding_suggest(f, cand, "squares reversed");
		}
	}
	/* 2. two neighbouring digits swapped; 3. one digit off */
	int len = core_text(w, buf, sizeof buf);
	for (int i = 0; i + 1 < len; i++) {
		if (!isdigit((unsigned char)buf[i]) || !isdigit((unsigned char)buf[i + 1]) || buf[i] == buf[i + 1])
			continue;
		char t[64];
		memcpy(t, buf, (size_t)len + 1);
		char x = t[i];
		t[i] = t[i + 1];
		t[i + 1] = x;
		if (legal_text(ml, t, cand))
			finding_suggest(f, cand, "two digits swapped");
	}
	for (int i = 0; i < len; i++) {
		if (!isdigit((unsigned char)buf[i]))
			continue;
		for (char d = '0'; d <= '9'; d++) {
			if (d == buf[i])
				continue;
			char t[64];
			memcpy(t, buf, (size_t)len + 1);
			t[i] = d;
			if ((i == 0 || !isdigit((unsigned char)t[i - 1])) && d == '0')
				continue;   /* no leading zero inventions */
			if (legal_text(ml, t, cand))
				finding_suggest(f, cand, "one digit off");
		}
	}
	/* 4. the only legal move of that piece; 5. the only legal move to that square */
	int from_count = 0, to_count = 0, fi = -1, ti = -1;
	for (int i = 0; i < ml->n; i++) {
		if (ml->m[i].from + 1 == w->sq[0]) {
			if (fi < 0 || !move_same_effect(&ml->m[fi], &ml->m[i]))
				from_count++;
			fi = fi < 0 ? i : fi;
		}
		if (move_to(&ml->m[i]) + 1 == w->sq[w->n - 1]) {
			if (ti < 0 || !move_same_effect(&ml->m[ti], &ml->m[i]))
				to_count++;
			ti = ti < 0 ? i : ti;
		}
	}
	if (from_count == 1) {
		rp_fmt_move(&ml->m[fi], false, cand);
		finding_suggest(f, cand, "the only legal move of that piece");
	}
	if (to_count == 1) {
		rp_fmt_move(&ml->m[ti], false, cand);
		finding_suggest(f, cand, "the only legal move to that square");
	}
	/* 6. the only legal move at all */
	pk_movelist u;
	if (gen_moves_unique(pos, &u) == 1) {
		rp_fmt_move(&u.m[0], false, cand);
		finding_suggest(f, cand, "the only legal move");
	}
}

/* " did you mean 27-32 (squares reversed) or 23-27 (one digit off)?" */
void rp_append_suggestions(pk_finding *f)
{
	if (!f || f->nsuggest == 0)
		return;
	size_t n = strlen(f->message);
	n += (size_t)snprintf(f->message + n, sizeof f->message - n, "; did you mean ");
	for (int i = 0; i < f->nsuggest && n < sizeof f->message; i++)
		n += (size_t)snprintf(f->message + n, sizeof f->message - n, "%s%s (%s)",
				      i == 0 ? "" : i == f->nsuggest - 1 ? " or " : ", ", f->suggest[i], f->why[i]);
	if (n < sizeof f->message)
		snprintf(f->message + n, sizeof f->message - n, "?");
}

