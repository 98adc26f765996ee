/* The openings of a match, of any variant: the ACF deck, every opening of a few plies
 * from the start, a game's start, and openings made longer by random plies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/ballots.h"
#include "analysis/match_int.h"
#include "analysis/opnames.h"
#include "pdn/pdn_write.h"
#include "rules/fen.h"

int match_ballots(pk_opening **out)
{
	int cap = 512, n = 0;
	pk_opening *v = malloc(sizeof *v * (size_t)cap);
	if (!v)
		return -1;
	pk_pos s;
	pos_start(&s);
	pk_movelist m1, m2, m3;
	gen_moves(&s, &m1);
	for (int a = 0; a < m1.n; a++) {
		pk_pos p1;
		pos_make(&s, &m1.m[a], &p1);
		gen_moves(&p1, &m2);
		for (int b = 0; b < m2.n; b++) {
			pk_pos p2;
			pos_make(&p1, &m2.m[b], &p2);
			gen_moves(&p2, &m3);
			for (int c = 0; c < m3.n && n < cap; c++) {
				pk_opening *o = &v[n++];
				pos_make(&p2, &m3.m[c], &o->start);
				char x[PK_MOVE_STRLEN], y[PK_MOVE_STRLEN], z[PK_MOVE_STRLEN];
				move_format(&m1.m[a], false, x, sizeof x);
				move_format(&m2.m[b], false, y, sizeof y);
				move_format(&m3.m[c], false, z, sizeof z);
				snprintf(o->text, sizeof o->text, "1. %s %s 2. %s", x, y, z);
				o->nply = 3;
				o->root = s;
				o->pre[0] = m1.m[a];
				o->pre[1] = m2.m[b];
				o->pre[2] = m3.m[c];
				o->keys[0] = s.key;
				o->keys[1] = p1.key;
				o->keys[2] = p2.key;
			}
		}
	}
	*out = v;
	return n;
}

/* The legal move from-to ("9-13", "13x22") in p, or false. */
static bool deck_move(const pk_pos *p, const char *text, pk_move *out)
{
	int from, to;
	char sep;
	if (sscanf(text, "%d%c%d", &from, &sep, &to) != 3)
		return false;
	pk_movelist ml;
	gen_moves(p, &ml);
	for (int i = 0; i < ml.n; i++)
		if (ml.m[i].from + 1 == from && move_to(&ml.m[i]) + 1 == to) {
			*out = ml.m[i];
			return true;
		}
	return false;
}

int match_deck(int plies, pk_opening **out)
{
	if (plies != 2)
		plies = 3;
	int cap = plies == 3 ? ACF_DECK_SIZE : 64, n = 0;
	pk_opening *v = calloc((size_t)cap, sizeof *v);
	if (!v)
		return -1;
	pk_pos s;
	pos_start(&s);
	if (plies == 3) {
		for (int i = 0; i < ACF_DECK_SIZE; i++) {
			char buf[64];
			snprintf(buf, sizeof buf, "%s", acf_deck[i]);
			pk_opening *o = &v[n];
			pk_pos p = s;
			o->root = s;
			char *save = NULL;
			for (char *tok = strtok_r(buf, " ", &save); tok && o->nply < 3; tok = strtok_r(NULL, " ", &save)) {
				if (!deck_move(&p, tok, &o->pre[o->nply])) {
					free(v);
					return -1;   /* cannot happen: the deck is checked by the tests */
				}
				o->keys[o->nply] = p.key;
				pk_pos q;
				pos_make(&p, &o->pre[o->nply++], &q);
				p = q;
			}
			o->start = p;
			/* the ballot's number, its moves, and the classic name it falls under */
			uint64_t keys[4] = { o->keys[0], o->keys[1], o->keys[2], p.key };
			const pk_opname *name = opname_of_keys(keys, 4);
			if (name)
				snprintf(o->text, sizeof o->text, "ACF %d: %s (%s)", i + 1, acf_deck[i], name->name);
			else
				snprintf(o->text, sizeof o->text, "ACF %d: %s", i + 1, acf_deck[i]);
			n++;
		}
	} else {
		pk_movelist m1, m2;
		gen_moves(&s, &m1);
		for (int a = 0; a < m1.n; a++) {
			pk_pos p1;
			pos_make(&s, &m1.m[a], &p1);
			gen_moves(&p1, &m2);
			for (int b = 0; b < m2.n && n < cap; b++) {
				pk_opening *o = &v[n++];
				o->root = s;
				o->pre[0] = m1.m[a];
				o->pre[1] = m2.m[b];
				o->keys[0] = s.key;
				o->keys[1] = p1.key;
				o->nply = 2;
				pos_make(&p1, &m2.m[b], &o->start);
				char x[PK_MOVE_STRLEN], y[PK_MOVE_STRLEN];
				move_format(&m1.m[a], false, x, sizeof x);
				move_format(&m2.m[b], false, y, sizeof y);
				snprintf(o->text, sizeof o->text, "1. %s %s", x, y);
			}
		}
	}
	*out = v;
	return n;
}

/* A small, fixed generator: the same seed gives the same openings on every machine. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

bool match_randomize(const pk_opening *base, int plies, uint64_t seed, pk_opening *o)
{
	*o = *base;
	uint64_t st = seed;
	pk_pos p = o->start;
	for (int k = 0; k < plies && o->nply < 8; k++) {
		pk_movelist ml;
		if (gen_moves(&p, &ml) == 0)
			return false;
		const pk_move *mv = &ml.m[splitmix(&st) % (uint64_t)ml.n];
		o->keys[o->nply] = p.key;
		o->pre[o->nply++] = *mv;
		char t[PK_MOVE_STRLEN];
		move_format(mv, false, t, sizeof t);
		size_t len = strlen(o->text);
		snprintf(o->text + len, sizeof o->text - len, " %s", t);
		pk_pos q;
		pos_make(&p, mv, &q);
		p = q;
	}
	o->start = p;
	pk_movelist ml;
	return gen_moves(&p, &ml) > 0;
}

/* The ply after which a game first has at most at_pieces pieces and no capture to make
 * (count and capture of the position after ply i, 0-based), or -1. */
static int ply_at_pieces(int nply, int at_pieces, int (*count)(const void *, int), bool (*capture)(const void *, int),
			 const void *ctx)
{
	for (int i = 0; i < nply; i++)
		if (count(ctx, i) <= at_pieces && !capture(ctx, i))
			return i;
	return -1;
}

static int en_count(const void *ctx, int i)
{
	const pk_pos *p = &((const pk_replay *)ctx)->plies[i].after;
	return bb_count(p->side[0] | p->side[1]);
}

static bool en_capture(const void *ctx, int i)
{
	return gen_has_capture(&((const pk_replay *)ctx)->plies[i].after);
}

bool match_opening_of(const pk_replay *rp, int at_pieces, pk_opening *o)
{
	int end = rp->nply > 8 ? 8 : rp->nply;   /* the plies up to the start */
	if (at_pieces > 0) {
		int i = ply_at_pieces(rp->nply, at_pieces, en_count, en_capture, rp);
		if (i < 0)
			return false;
		end = i + 1;
	}
	int first = end > 8 ? end - 8 : 0;
	o->nply = end - first;
	o->start = o->nply ? rp->plies[end - 1].after : rp->start;
	o->root = first ? rp->plies[first - 1].after : rp->start;
	for (int i = 0; i < o->nply; i++) {
		o->keys[i] = first + i ? rp->plies[first + i - 1].after.key : rp->start.key;
		o->pre[i] = rp->plies[first + i].move;
	}
	fen_format(&o->root, o->text, sizeof o->text);
	pk_movelist ml;
	return gen_moves(&o->start, &ml) > 0;
}

/* ---- the other variants ---- */

int match_vopenings(const pk_variant *v, pk_opening **out)
{
	pk_vmovelist *m1 = malloc(sizeof *m1), *m2 = malloc(sizeof *m2);
	int n = 0, cap = 0;
	pk_opening *list = NULL;
	if (!m1 || !m2)
		goto fail;
	pk_vpos s;
	vpos_start(v, &s);
	vgen(&s, m1);
	for (int a = 0; a < m1->n; a++) {
		pk_vpos p1;
		vmake(&s, &m1->m[a], &p1);
		vgen(&p1, m2);
		for (int b = 0; b < m2->n; b++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				pk_opening *nl = realloc(list, sizeof *nl * (size_t)cap);
				if (!nl)
					goto fail;
				list = nl;
			}
			pk_opening *o = &list[n++];
			memset(o, 0, sizeof *o);
			vmake(&p1, &m2->m[b], &o->vstart);
			char x[64], y[64];
			vmove_text(v, &m1->m[a], false, x, sizeof x);
			vmove_text(v, &m2->m[b], false, y, sizeof y);
			snprintf(o->text, sizeof o->text, "1. %s %s", x, y);
			o->nply = 2;
			o->keys[0] = vpos_key(&s);
			o->keys[1] = vpos_key(&p1);
			o->vroot = s;
			o->vpre[0] = m1->m[a];
			o->vpre[1] = m2->m[b];
		}
	}
	free(m1);
	free(m2);
	*out = list;
	return n;
fail:
	free(m1);
	free(m2);
	free(list);
	return -1;
}

bool match_vrandomize(const pk_variant *v, const pk_opening *base, int plies, uint64_t seed, pk_opening *o)
{
	*o = *base;
	uint64_t st = seed;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return false;
	pk_vpos p = o->vstart;
	bool ok = true;
	for (int k = 0; k < plies && o->nply < 8; k++) {
		if (vgen(&p, ml) == 0) {
			ok = false;
			break;
		}
		/* splitmix64 */
		uint64_t z = (st += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		const pk_vmove *mv = &ml->m[z % (uint64_t)ml->n];
		o->keys[o->nply] = vpos_key(&p);
		o->vpre[o->nply++] = *mv;
		char t[96];
		vmove_text(v, mv, false, t, sizeof t);
		size_t len = strlen(o->text);
		snprintf(o->text + len, sizeof o->text - len, " %s", t);
		pk_vpos q;
		vmake(&p, mv, &q);
		p = q;
	}
	o->vstart = p;
	ok = ok && vgen(&p, ml) > 0;
	free(ml);
	return ok;
}

/* The callbacks' context: the array of the positions after each ply. */
static int v_count(const void *ctx, int i) { return vpos_pieces(&((const pk_vpos *)ctx)[i]); }
static bool v_capture(const void *ctx, int i) { return vhas_capture(&((const pk_vpos *)ctx)[i]); }

bool match_vopening_of(const pk_variant *v, const pk_replay *rp, int at_pieces, pk_opening *o)
{
	const pk_vreplay *vr = &rp->vr;
	if (rp->variant != v->gametype || !vr->ord || !vr->key)
		return false;
	memset(o, 0, sizeof *o);
	pk_vmovelist *ml = malloc(sizeof *ml);
	pk_vpos *after = malloc(sizeof *after * (size_t)(vr->plies + 1));
	bool ok = ml && after;
	int end = vr->plies > 8 ? 8 : vr->plies;   /* the plies up to the start */
	/* every position of the game, after each ply */
	pk_vpos p = vr->start;
	int n = 0;
	for (; ok && n < vr->plies && (n < end || at_pieces > 0); n++) {
		if (vgen(&p, ml) <= vr->ord[n])
			break;
		vmake(&p, &ml->m[vr->ord[n]], &after[n]);
		p = after[n];
	}
	if (ok && at_pieces > 0) {
		int i = ply_at_pieces(n, at_pieces, v_count, v_capture, after);
		ok = i >= 0;
		end = i + 1;
	}
	if (ok) {
		int first = end > 8 ? end - 8 : 0;
		o->nply = end - first;
		o->vroot = first ? after[first - 1] : vr->start;
		pk_vpos q = o->vroot;
		for (int i = 0; i < o->nply; i++) {
			o->keys[i] = vr->key[first + i];
			vgen(&q, ml);
			o->vpre[i] = ml->m[vr->ord[first + i]];
			vmake(&q, &o->vpre[i], &p);
			q = p;
		}
		o->vstart = q;
		vfen_format(&o->vroot, o->text, sizeof o->text);
		ok = vgen(&q, ml) > 0;
	}
	free(ml);
	free(after);
	return ok;
}

bool match_opening_root(const pk_opening *o, const pk_variant *v, pk_gpos *root)
{
	if (o->nply <= 0)
		return false;
	if (v) {
		if (!o->vroot.v)
			return false;
		gpos_variant(root, &o->vroot);
	} else {
		if (!(o->root.side[0] | o->root.side[1]))
			return false;
		gpos_english(root, &o->root);
	}
	return true;
}
