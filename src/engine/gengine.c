/* One engine call for every variant (engine/gengine.h). */
#include <stdlib.h>
#include <string.h>
#include "engine/gengine.h"
#include "engine/search_int.h"

struct pk_gengine {
	pk_engine *e;                /* English draughts' */
	pk_vengine *ve;              /* the other variants' */
	pk_giteration it;            /* the iteration handed to the callback */
	pk_giteration_cb cb;
	void *ctx;
	bool lent;                   /* e is not this engine's to free */
};

pk_gengine *gengine_new(pk_engine *e, pk_vengine *ve)
{
	pk_gengine *g = calloc(1, sizeof *g);
	if (!g) {
		engine_free(e);
		vengine_free(ve);
		return NULL;
	}
	g->e = e;
	g->ve = ve;
	return g;
}

pk_gengine *gengine_lend(pk_engine *e, pk_vengine *ve)
{
	pk_gengine *g = calloc(1, sizeof *g);
	if (!g) {
		vengine_free(ve);
		return NULL;
	}
	g->e = e;
	g->ve = ve;
	g->lent = true;
	return g;
}

void gengine_free(pk_gengine *g)
{
	if (!g)
		return;
	if (!g->lent)
		engine_free(g->e);
	vengine_free(g->ve);
	free(g);
}

pk_engine *gengine_english(pk_gengine *g) { return g->e; }

pk_vengine *gengine_other(pk_gengine *g) { return g->ve; }

void gengine_set_other(pk_gengine *g, pk_vengine *ve)
{
	if (g->ve)
		vengine_free(ve);
	else
		g->ve = ve;
}

void gengine_new_game(pk_gengine *g)
{
	if (g->e)
		engine_new_game(g->e);
	if (g->ve)
		vengine_new_game(g->ve);
}

int gengine_features(const pk_gengine *g, const pk_gpos *p, pk_features *f)
{
	if (p->v ? !g->ve : !g->e)
		return -1;
	if (p->v)
		vengine_features(g->ve, p->v, f);
	else
		*f = g->e->f;
	return 0;
}

static void from_english(const pk_iteration *it, pk_giteration *out)
{
	out->depth = it->depth;
	out->score = it->score;
	out->nodes = it->nodes;
	out->seconds = it->seconds;
	out->npv = it->npv < GPV_MAX ? it->npv : GPV_MAX;
	for (int i = 0; i < out->npv; i++)
		out->pv[i].e = it->pv[i];
}

static void from_variant(const pk_viteration *it, pk_giteration *out)
{
	out->depth = it->depth;
	out->score = it->score;
	out->nodes = it->nodes;
	out->seconds = it->seconds;
	out->npv = it->npv < GPV_MAX ? it->npv : GPV_MAX;
	for (int i = 0; i < out->npv; i++)
		out->pv[i].x = it->pv[i];
}

static void on_english(void *ctx, const pk_iteration *it)
{
	pk_gengine *g = ctx;
	from_english(it, &g->it);
	g->cb(g->ctx, &g->it);
}

static void on_variant(void *ctx, const pk_viteration *it)
{
	pk_gengine *g = ctx;
	from_variant(it, &g->it);
	g->cb(g->ctx, &g->it);
}

int gengine_search(pk_gengine *g, const pk_gpos *root, const pk_history *h, const pk_limits *lim,
		   const pk_gmove *exclude, int nexclude, volatile sig_atomic_t *stop, pk_giteration_cb cb, void *ctx,
		   pk_gresult *out)
{
	memset(out, 0, sizeof *out);
	g->cb = cb;
	g->ctx = ctx;
	pk_limits l = *lim;
	int rc;
	if (root->v ? !g->ve : !g->e)
		return -1;
	if (!root->v) {
		pk_move ex[PK_MAX_MOVES];
		int n = nexclude < PK_MAX_MOVES ? nexclude : PK_MAX_MOVES;
		for (int i = 0; i < n; i++)
			ex[i] = exclude[i].e;
		if (n) {
			l.exclude = ex;
			l.nexclude = n;
		}
		pk_result r;
		rc = engine_search(g->e, &root->e, h, &l, stop, cb ? on_english : NULL, g, &r);
		out->best.e = r.best;
		out->has_move = r.has_move;
		out->forced = r.forced;
		from_english(&r.last, &out->last);
		out->in_egdb = r.in_egdb;
		out->egdb = r.egdb;
		return rc;
	}
	if (nexclude > 0) {
		pk_vmove *ex = malloc(sizeof *ex * (size_t)nexclude);
		if (!ex)
			return -1;
		for (int i = 0; i < nexclude; i++)
			ex[i] = exclude[i].x;
		vengine_exclude(g->ve, ex, nexclude);
		free(ex);
	}
	pk_vresult *r = malloc(sizeof *r);
	if (!r)
		return -1;
	l.exclude = NULL;
	l.nexclude = 0;
	rc = vengine_search(g->ve, &root->x, h, &l, stop, cb ? on_variant : NULL, g, r);
	out->best.x = r->best;
	out->has_move = r->has_move;
	out->forced = r->forced;
	from_variant(&r->last, &out->last);
	free(r);
	return rc;
}
