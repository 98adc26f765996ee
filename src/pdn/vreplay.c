/* Replay under a variant's rules: tokens to squares, squares to the one legal move. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/replay_int.h"
#include "pdn/vreplay.h"
#include "rules/pos.h"

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

/* The moves that w names on ml's board: as candidates(), and for digits written without
 * a separator ("3228") the moves of the one way to split them that names any (*splits
 * the ways that do: more than one is ambiguous, none no move). */
static int written_candidates(const pk_variant *v, const pk_vmovelist *ml, const pk_written *w, int *idx, int *splits)
{
	*splits = 0;
	if (!w->nosep)
		return candidates(ml, w->sq, w->n, idx);
	int found = 0, pair[8][2];
	int np = written_splits(w, variant_squares(v), pair, 8);
	for (int k = 0; k < np; k++) {
		int c = candidates(ml, pair[k], 2, idx + found);
		if (c) {
			found += c;
			++*splits;
		}
	}
	return found;
}

int vreplay_read_move(const pk_vpos *p, const char *text, pk_vmove *cand, int max)
{
	pk_written w;
	char why[120];
	if (written_parse_on(p->v, text, &w, why, sizeof why) < 0 || w.glued || (w.n < 2 && !w.nosep))
		return -1;
	pk_vmovelist *ml = malloc(sizeof *ml);
	int *idx = malloc(sizeof *idx * VAR_MAX_MOVES * 4);
	int c = 0, splits;
	if (ml && idx) {
		vgen(p, ml);
		c = written_candidates(p->v, ml, &w, idx, &splits);
		if (w.nosep && splits != 1)
			c = 0;
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
	int *idx = malloc(sizeof *idx * VAR_MAX_MOVES * 4);
	int plies = 0;
	char text[64], why[120];
	pk_written w;
	while (ml && idx && plies < limit && rp_next_move(g, v, &i, text, sizeof text, &w, why, sizeof why) > 0) {
		vgen(&p, ml);
		int splits;
		if (written_candidates(v, ml, &w, idx, &splits) == 0)
			break;
		pk_vpos c;
		vmake(&p, &ml->m[idx[0]], &c);
		p = c;
		plies++;
		i++;
	}
	free(ml);
	free(idx);
	return plies;
}

int vreplay_trial(const pk_game *g, const pk_variant *v)
{
	pk_vpos p;
	const char *fen = game_tag(g, "FEN");
	char err[200];
	if (fen && vfen_parse(v, fen, &p, err, sizeof err) < 0)
		return -1;
	if (!fen)
		vpos_start(v, &p);
	int plies = look_ahead(g, v, p, 0, 1 << 30);
	if (plies == 0) {
		/* not even the first move: no fit (a game without moves fits any board) */
		int i = 0;
		char text[64], why[120];
		pk_written w;
		if (rp_next_move(g, v, &i, text, sizeof text, &w, why, sizeof why) != 0)
			return -1;
	}
	return plies;
}

void vreplay_free(pk_vreplay *r)
{
	free(r->ord);
	free(r->key);
	free(r->el);
	free(r->rev);
	free(r->pos);
	r->pos = NULL;
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
	if (rv)
		r->rev = rv;
	pk_vpos *ps = rv ? realloc(r->pos, sizeof *ps * (size_t)(cap + 1)) : NULL;
	if (!ps)
		return -1;
	r->pos = ps;
	r->cap = cap;
	return 0;
}

int vreplay_begin(pk_vreplay *r, const pk_vpos *start)
{
	vreplay_free(r);
	memset(r, 0, sizeof *r);
	r->start = *start;
	r->first = start->stm;
	r->complete = true;
	if (keep_room(r, 0) < 0)
		return -1;
	r->key[0] = vpos_key(start);
	r->rev[0] = 0;
	r->pos[0] = *start;
	return 0;
}

/* The illegal or unreadable move (w NULL) of c: why, the legal moves, and what was
 * probably meant. */
static void illegal(rp_ctx *c, const pk_written *w)
{
	const pk_vpos *p = &c->vpos;
	const pk_vmovelist *ml = c->vml;
	const pk_variant *v = c->v;
	int n = w ? w->n : -1;
	const int *sq = w ? w->sq : NULL;
	char legal[400];
	size_t used = 0;
	legal[0] = 0;
	for (int k = 0; k < ml->n && used + 16 < sizeof legal; k++) {
		char mv[160];
		vmove_text(v, &ml->m[k], false, mv, sizeof mv);
		used += (size_t)snprintf(legal + used, sizeof legal - used, "%s%s", k ? ", " : "", mv);
	}
	char why[200];
	rp_vexplain(p, ml, c->text, sq, n, why, sizeof why);
	/* a move of the other side: a move may be missing before this one */
	char other[80] = "";
	pk_vpos q = *p;
	q.stm = !q.stm;
	pk_vmove cand[2];
	if (n >= 2 && vreplay_read_move(&q, c->text, cand, 2) > 0)
		snprintf(other, sizeof other, "t is a legal move for %s: is a move missing before it?",
			 q.stm == PK_WHITE ? "White" : "Black");
	pk_finding *f = findings_add(&c->g->findings, SEV_ERROR, n < 0 ? "bad-move" : "illegal-move", c->el->line,
				     c->el->col, c->ply, "%s: %s under the rules of %s (%s to move%s%s; legal: %s)", c->text,
				     n < 0 ? "not a move" : "not legal here", v->name, p->stm == PK_WHITE ? "White" : "Black",
				     why[0] ? "; " : "", why, ml->n ? legal : "none");
	if (!f)
		return;
	snprintf(f->move, sizeof f->move, "%s", c->text);
	rp_vsuggest(p, ml, c->text, sq, n, f);
	rp_append_suggestions(f);
	if (other[0]) {
		size_t len = strlen(f->message);
		snprintf(f->message + len, sizeof f->message - len, "%s%s", f->nsuggest ? " I" : "; i", other);
	}
}

int rp_vmove(rp_ctx *c, int ei, const pk_written *w)
{
	pk_game *g = c->g;
	pk_vreplay *r = &c->rp->vr;
	const pk_variant *v = c->v;
	vgen(&c->vpos, c->vml);
	const pk_vmovelist *ml = c->vml;
	int idx[VAR_MAX_MOVES * 4], splits = 0;
	int count = w && (w->n >= 2 || w->nosep) ? written_candidates(v, ml, w, idx, &splits) : 0;
	if (w && w->nosep) {
		if (splits > 1) {
			rp_error_at(c, "unparsable-move", "'%s' without a separator fits several moves%s", "");
			return -1;
		}
		if (count)
			findings_add_once(&g->findings, SEV_WARNING, "no-separator", c->el->line, c->el->col, c->ply,
					  "move '%s' written without a separator", c->text);
	}
	if (count == 0) {
		illegal(c, w && !w->nosep ? w : NULL);
		return -1;
	}
	int pick = idx[0];
	if (count > 1) {
		/* captures of different pieces written alike: the one after which the game goes
		 * on furthest */
		int best = -1, tied = 0;
		for (int k = 0; k < count; k++) {
			pk_vpos after;
			vmake(&c->vpos, &ml->m[idx[k]], &after);
			int a = look_ahead(g, v, after, ei + 1, 400);
			if (a > best) {
				best = a;
				pick = idx[k];
				tied = 1;
			} else if (a == best) {
				tied++;
			}
		}
		if (tied > 1)
			findings_add(&g->findings, SEV_WARNING, "ambiguous-move", c->el->line, c->el->col, c->ply,
				     "%s: %d legal captures fit and the game does not tell them apart; write every "
				     "square to say which (the first is taken)", c->text, count);
	}
	const pk_vmove *m = &ml->m[pick];
	if (w->sep && !w->mixed && (w->sep == 'x') != (m->ncap > 0))
		findings_add_once(&g->findings, SEV_WARNING, m->ncap ? "dash-on-jump" : "x-on-plain-move", c->el->line,
				  c->el->col, c->ply, m->ncap ? "capture %s written with '-'" : "plain move %s written with 'x'",
				  c->text);
	int piece = c->vpos.sq[m->from];
	bool reversible = (piece == VP_WKING || piece == VP_BKING) && m->ncap == 0;
	pk_vpos next;
	vmake(&c->vpos, m, &next);
	c->vpos = next;
	if (keep_room(r, r->plies + 1) < 0)
		return -2;
	r->ord[r->plies] = pick;
	r->el[2 * r->plies] = c->first_el;
	r->el[2 * r->plies + 1] = ei;
	r->key[r->plies + 1] = vpos_key(&next);
	r->rev[r->plies + 1] = reversible ? r->rev[r->plies] + 1 : 0;
	r->pos[r->plies + 1] = next;
	r->plies++;
	return 0;
}
int vreplay_pos_before(const pk_vreplay *r, int ply, pk_vpos *p, pk_vmove *m)
{
	if (ply < 1 || ply > r->plies + 1 || (ply > 1 && !r->pos))
		return -1;
	*p = r->pos ? r->pos[ply - 1] : r->start;
	if (ply > r->plies || !m)
		return 0;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return -1;
	int n = vgen(p, ml), rc = 0;
	if (r->ord[ply - 1] < 0 || r->ord[ply - 1] >= n)
		rc = -1;
	else
		*m = ml->m[r->ord[ply - 1]];
	free(ml);
	return rc;
}
