/* Replay under a variant's rules: tokens to squares, squares to the one legal move. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/replay_int.h"
#include "pdn/vreplay.h"
#include "rules/pos.h"

#define MAX_WRITTEN 32

/* The squares of a move token: numbers, or file letter and rank; separated by '-', 'x'
 * or ':'. Marks after the move (!, ?) are ignored. Returns how many, or -1. */
static int token_squares(const pk_variant *v, const char *t, int *sq, bool *capture)
{
	int n = 0;
	*capture = false;
	const char *p = t;
	while (*p && n < MAX_WRITTEN) {
		int s;
		if (isalpha((unsigned char)*p) && isdigit((unsigned char)p[1])) {
			int col = tolower((unsigned char)*p) - 'a';
			char *end;
			long rank = strtol(p + 1, &end, 10);
			s = variant_rc_square(v, v->rows - (int)rank, col);
			if (!s)
				return -1;
			p = end;
		} else if (isdigit((unsigned char)*p)) {
			char *end;
			long x = strtol(p, &end, 10);
			if (x < 1 || x > variant_squares(v))
				return -1;
			s = (int)x;
			p = end;
		} else {
			return -1;
		}
		sq[n++] = s;
		if (*p == 'x' || *p == 'X' || *p == ':')
			*capture = true;
		if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':')
			p++;
		else
			break;
	}
	while (*p == '!' || *p == '?' || *p == '*')
		p++;
	return *p || n < 2 ? -1 : n;
}

/* Whether m is what the squares say: from, to, and any squares between among its
 * landings in order. */
static bool matches(const pk_vmove *m, const int *sq, int n)
{
	if (m->from != sq[0] || m->to != sq[n - 1])
		return false;
	int k = 0;
	for (int i = 1; i < n - 1; i++) {
		while (k < m->nland && m->land[k] != sq[i])
			k++;
		if (k == m->nland)
			return false;
		k++;
	}
	return true;
}

/* The next main-line move from element *i on: its text (joined when written apart) in
 * text, its squares in sq. Returns the number of squares, -1 for a token that is not a
 * move, or 0 at the end; *i is left on the move's last element. */
static int next_move(const pk_game *g, const pk_variant *v, int *i, char *text, size_t size, int *sq)
{
	for (; *i < g->nel; (*i)++) {
		const pk_el *e = &g->els[*i];
		if (e->depth != 0 || e->kind != EL_MOVE)
			continue;
		const char *t = game_str(g, e->off);
		if (strspn(t, ".") == strlen(t))
			continue;                    /* "..." holds a place, as in "77. ..." */
		snprintf(text, size, "%s", t);
		size_t len = strlen(text);
		/* "1- 7": a move written apart; the next element is its end */
		if (len && len < 32 && strchr("-x:", text[len - 1]))
			for (int j = *i + 1; j < g->nel; j++) {
				const pk_el *f = &g->els[j];
				if (f->depth != 0)
					continue;
				const char *u = game_str(g, f->off);
				if ((f->kind == EL_MOVE || f->kind == EL_NUMBER) && strlen(u) < 16 && u[0] &&
				    strspn(u, "0123456789") == strlen(u)) {
					snprintf(text + len, size - len, "%s", u);
					*i = j;
				}
				break;
			}
		bool capture;
		return token_squares(v, text, sq, &capture);
	}
	return 0;
}

/* The legal moves that the squares name: with the squares between, else (a king that
 * could stop on several squares) by start and end alone. Indices into idx. */
static int candidates(const pk_vmovelist *ml, const int *sq, int n, int *idx)
{
	int c = 0;
	for (int k = 0; k < ml->n; k++)
		if (matches(&ml->m[k], sq, n))
			idx[c++] = k;
	if (c == 0 && n > 2) {
		int ends[2] = { sq[0], sq[n - 1] };
		for (int k = 0; k < ml->n; k++)
			if (matches(&ml->m[k], ends, 2))
				idx[c++] = k;
	}
	return c;
}

int vreplay_read_move(const pk_vpos *p, const char *text, pk_vmove *cand, int max)
{
	int sq[MAX_WRITTEN];
	bool capture;
	int n = token_squares(p->v, text, sq, &capture);
	if (n <= 0)
		return -1;
	pk_vmovelist *ml = malloc(sizeof *ml);
	int *idx = malloc(sizeof *idx * VAR_MAX_MOVES);
	int c = 0;
	if (ml && idx) {
		vgen(p, ml);
		c = candidates(ml, sq, n, idx);
		for (int k = 0; k < c && k < max; k++)
			cand[k] = ml->m[idx[k]];
		c = c < max ? c : max;
	}
	free(ml);
	free(idx);
	return c;
}

/* How many of the moves from element i on replay from p, taking the first candidate. */
static int look_ahead(const pk_game *g, const pk_variant *v, pk_vpos p, int i, int limit)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	int plies = 0;
	char text[64];
	int sq[MAX_WRITTEN], idx[VAR_MAX_MOVES];
	while (plies < limit) {
		int n = next_move(g, v, &i, text, sizeof text, sq);
		if (n <= 0)
			break;
		vgen(&p, ml);
		if (candidates(ml, sq, n, idx) == 0)
			break;
		pk_vpos c;
		vmake(&p, &ml->m[idx[0]], &c);
		p = c;
		plies++;
		i++;
	}
	free(ml);
	return plies;
}

void vreplay_free(pk_vreplay *r)
{
	free(r->ord);
	free(r->key);
	free(r->el);
	free(r->rev);
	r->rev = NULL;
	r->ord = NULL;
	r->key = NULL;
	r->el = NULL;
	r->cap = 0;
}

/* Room for ply n's ordinal and the key after it. */
static int keep_room(pk_vreplay *r, int n)
{
	if (n < r->cap)
		return 0;
	int cap = r->cap ? r->cap * 2 : 128;
	int *o = realloc(r->ord, sizeof *o * (size_t)cap);
	if (o)
		r->ord = o;
	uint64_t *k = o ? realloc(r->key, sizeof *k * (size_t)(cap + 1)) : NULL;
	if (k)
		r->key = k;
	int *el = k ? realloc(r->el, sizeof *el * 2 * (size_t)cap) : NULL;
	if (el)
		r->el = el;
	int *rv = el ? realloc(r->rev, sizeof *rv * (size_t)(cap + 1)) : NULL;
	if (!rv)
		return -1;
	r->rev = rv;
	r->cap = cap;
	return 0;
}

int vreplay_game(pk_game *g, const pk_variant *v, bool quiet, bool keep, pk_vreplay *out)
{
	memset(out, 0, sizeof *out);
	pk_vpos p;
	const char *fen = game_tag(g, "FEN");
	if (fen) {
		char err[200];
		if (vfen_parse(v, fen, &p, err, sizeof err) < 0) {
			if (!quiet)
				findings_add(&g->findings, SEV_ERROR, "bad-fen", g->line, 1, 0, "FEN \"%s\" for %s: %s", fen,
					     v->name, err);
			out->errors++;
			out->bad_start = true;
			vpos_clear(v, &out->start, v->first);
			out->first = v->first;
			return 0;
		}
		pk_vpos initial;
		vpos_start(v, &initial);
		/* a FEN of the initial position (as every game of some collections has) is no
		 * set-up: such games share openings with those without one */
		out->custom_start = initial.stm != p.stm || memcmp(initial.sq, p.sq, sizeof p.sq) != 0;
	} else {
		vpos_start(v, &p);
	}
	out->first = p.stm;
	out->start = p;
	if (keep && keep_room(out, 0) < 0)
		return -1;
	if (keep) {
		out->key[0] = vpos_key(&p);
		out->rev[0] = 0;
	}
	pk_vmovelist *ml = malloc(sizeof *ml);
	int *idx = malloc(sizeof *idx * VAR_MAX_MOVES);
	if (!ml || !idx) {
		free(ml);
		free(idx);
		return -1;
	}
	out->complete = true;
	char text[64];
	int sq[MAX_WRITTEN];
	for (int i = 0;; i++) {
		int first = i;
		int n = next_move(g, v, &i, text, sizeof text, sq);
		if (n == 0)
			break;
		while (first < g->nel && (g->els[first].depth != 0 || g->els[first].kind != EL_MOVE ||
					  strspn(game_str(g, g->els[first].off), ".") == strlen(game_str(g, g->els[first].off))))
			first++;
		const pk_el *e = &g->els[first < g->nel ? first : i];
		int nm = vgen(&p, ml);
		int count = n > 0 ? candidates(ml, sq, n, idx) : 0;
		if (count == 0) {
			if (!quiet) {
				char legal[400];
				size_t used = 0;
				legal[0] = 0;
				for (int k = 0; k < nm && used + 16 < sizeof legal; k++) {
					char mv[160];
					vmove_text(v, &ml->m[k], false, mv, sizeof mv);
					used += (size_t)snprintf(legal + used, sizeof legal - used, "%s%s", k ? ", " : "", mv);
				}
				char why[200];
				rp_vexplain(&p, ml, text, sq, n, why, sizeof why);
				/* a move of the other side: a move may be missing before this one */
				char other[80] = "";
				pk_vpos q = p;
				q.stm = !q.stm;
				pk_vmove cand[2];
				if (n >= 2 && vreplay_read_move(&q, text, cand, 2) > 0)
					snprintf(other, sizeof other, "t is a legal move for %s: is a move missing before it?",
						 q.stm == PK_WHITE ? "White" : "Black");
				pk_finding *f = findings_add(&g->findings, SEV_ERROR, n < 0 ? "bad-move" : "illegal-move",
							     e->line, e->col, out->plies + 1,
							     "%s: %s under the rules of %s (%s to move%s%s; legal: %s)", text,
							     n < 0 ? "not a move" : "not legal here", v->name,
							     p.stm == PK_WHITE ? "White" : "Black", why[0] ? "; " : "", why,
							     nm ? legal : "none");
				rp_vsuggest(&p, ml, text, sq, n, f);
				rp_append_suggestions(f);
				if (f && other[0]) {
					size_t len = strlen(f->message);
					snprintf(f->message + len, sizeof f->message - len, "%s%s",
						 f->nsuggest ? " I" : "; i", other);
				}
			}
			out->errors++;
			out->complete = false;
			break;
		}
		int pick = idx[0];
		if (count > 1) {
			/* captures of different pieces written alike: the one after which the game
			 * goes on furthest */
			int best = -1, tied = 0;
			for (int k = 0; k < count; k++) {
				pk_vpos c;
				vmake(&p, &ml->m[idx[k]], &c);
				int a = look_ahead(g, v, c, i + 1, 400);
				if (a > best) {
					best = a;
					pick = idx[k];
					tied = 1;
				} else if (a == best) {
					tied++;
				}
			}
			if (tied > 1 && !quiet)
				findings_add(&g->findings, SEV_WARNING, "ambiguous-move", e->line, e->col, out->plies + 1,
					     "%s: %d legal captures fit and the game does not tell them apart; write every "
					     "square to say which (the first is taken)", text, count);
		}
		pk_vpos next;
		vmake(&p, &ml->m[pick], &next);
		bool king = p.sq[ml->m[pick].from] == VP_WKING || p.sq[ml->m[pick].from] == VP_BKING;
		bool reversible = king && ml->m[pick].ncap == 0;
		p = next;
		if (keep) {
			if (keep_room(out, out->plies + 1) < 0) {
				free(ml);
				free(idx);
				return -1;
			}
			out->ord[out->plies] = pick;
			out->el[2 * out->plies] = first < g->nel ? first : i;
			out->el[2 * out->plies + 1] = i;
			out->key[out->plies + 1] = vpos_key(&p);
			out->rev[out->plies + 1] = reversible ? out->rev[out->plies] + 1 : 0;
		}
		out->plies++;
	}
	free(ml);
	free(idx);
	return 0;
}

int vreplay_pos_before(const pk_vreplay *r, int ply, pk_vpos *p, pk_vmove *m)
{
	if (ply < 1 || ply > r->plies + 1 || (ply > 1 && !r->ord))
		return -1;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return -1;
	*p = r->start;
	int rc = 0;
	for (int i = 0; i < ply; i++) {
		if (i == r->plies)
			break;
		int n = vgen(p, ml);
		if (r->ord[i] < 0 || r->ord[i] >= n) {
			rc = -1;
			break;
		}
		if (i == ply - 1) {
			if (m)
				*m = ml->m[r->ord[i]];
			break;
		}
		pk_vpos q;
		vmake(p, &ml->m[r->ord[i]], &q);
		*p = q;
	}
	free(ml);
	return rc;
}
