/* Positions and moves of any variant (rules/gpos.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules/fen.h"
#include "rules/gpos.h"
#include "rules/move.h"

void gpos_english(pk_gpos *g, const pk_pos *p)
{
	g->v = NULL;
	g->e = *p;
}

void gpos_variant(pk_gpos *g, const pk_vpos *p)
{
	g->v = p->v;
	g->x = *p;
}

void gpos_start(pk_gpos *g, const pk_variant *v)
{
	if (!v || v->gametype == 21) {
		pk_pos p;
		pos_start(&p);
		gpos_english(g, &p);
	} else {
		pk_vpos p;
		vpos_start(v, &p);
		gpos_variant(g, &p);
	}
}

int gpos_stm(const pk_gpos *g) { return g->v ? g->x.stm : g->e.stm; }

int gpos_first(const pk_gpos *g) { return g->v ? g->v->first : PK_BLACK; }

uint64_t gpos_key(const pk_gpos *g) { return g->v ? vpos_state_key(&g->x) : g->e.key; }

void gpos_make(const pk_gpos *g, const pk_gmove *m, pk_gpos *out)
{
	out->v = g->v;
	if (g->v)
		vmake(&g->x, &m->x, &out->x);
	else
		pos_make(&g->e, &m->e, &out->e);
}

int gpos_count(const pk_gpos *g)
{
	if (g->v)
		return vcount(&g->x);
	pk_movelist ml;
	return gen_moves(&g->e, &ml);
}

int gpos_gen(const pk_gpos *g, pk_gmove *out, int max)
{
	int n = 0;
	if (!g->v) {
		pk_movelist ml;
		gen_moves(&g->e, &ml);
		for (; n < ml.n && n < max; n++)
			out[n].e = ml.m[n];
		return n;
	}
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return -1;
	vgen(&g->x, ml);
	for (; n < ml->n && n < max; n++)
		out[n].x = ml->m[n];
	free(ml);
	return n;
}

bool gmove_same(const pk_gpos *g, const pk_gmove *a, const pk_gmove *b)
{
	return g->v ? vmove_same(&a->x, &b->x) : move_same_effect(&a->e, &b->e);
}

int gmove_format(const pk_gpos *g, const pk_gmove *m, bool full, char *buf, size_t size)
{
	return g->v ? vmove_text(g->v, &m->x, full, buf, size) : move_format(&m->e, full, buf, size);
}

int gpos_fen(const pk_gpos *g, char *buf, size_t size)
{
	return g->v ? vfen_format(&g->x, buf, size) : fen_format(&g->e, buf, size);
}
