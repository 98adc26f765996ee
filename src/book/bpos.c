/* The positions a book is about, English draughts (rules/gen.c) or another variant
 * (rules/variant.c), behind one small interface, so that building, coding, decoding and
 * walking a book is written once for both. Move lists are kept per ply of the tree walk
 * (a variant's list is large), never in the frames of its recursion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book/book_int.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"
#include "rules/fen.h"

void bp_from_pos(bpos *b, const pk_pos *p)
{
	b->v = NULL;
	b->e = *p;
	b->key = p->key;
}

void bp_from_vpos(bpos *b, const pk_vpos *p)
{
	b->v = p->v;
	b->x = *p;
	b->key = vpos_state_key(p);
}

int bp_stm(const bpos *p) { return p->v ? p->x.stm : p->e.stm; }

bmoves *bm_at(bm_pool *pool, int ply)
{
	if (ply < 0 || ply >= BM_POOL)
		return NULL;
	if (!pool->at[ply] && !(pool->at[ply] = calloc(1, sizeof *pool->at[ply])))
		return NULL;
	return pool->at[ply];
}

void bm_pool_free(bm_pool *pool)
{
	for (int i = 0; i < BM_POOL; i++) {
		if (pool->at[i])
			free(pool->at[i]->x);
		free(pool->at[i]);
		pool->at[i] = NULL;
	}
}

int bp_gen(const bpos *p, bmoves *m)
{
	if (!p->v)
		return m->n = gen_moves(&p->e, &m->e);
	if (!m->x && !(m->x = malloc(sizeof *m->x)))
		return m->n = -1;
	return m->n = vgen(&p->x, m->x);
}

void bp_rank(const bpos *p, bmoves *m)
{
	if (!p->v)
		book_rank_moves(&p->e, &m->e, m->rank);
	else
		book_vrank_moves(&p->x, m->x, m->rank);
	for (int i = 0; i < m->n; i++)
		m->by_rank[m->rank[i]] = i;
}

void bp_make(const bpos *p, const bmoves *m, int ord, bpos *c)
{
	if (!p->v) {
		pk_pos e;
		pos_make(&p->e, &m->e.m[ord], &e);
		bp_from_pos(c, &e);
	} else {
		pk_vpos x;
		vmake(&p->x, &m->x->m[ord], &x);
		bp_from_vpos(c, &x);
	}
}

int bp_fen(const bpos *p, char *buf, size_t size)
{
	/* numbers in every variant: this is the root a book's header keeps */
	return p->v ? vfen_format_as(&p->x, true, buf, size) : fen_format(&p->e, buf, size);
}

int bp_move_text(const bpos *p, const bmoves *m, int ord, char *buf, size_t size)
{
	if (!p->v) {
		char t[PK_MOVE_STRLEN];
		pdn_move_string(&p->e, &m->e.m[ord], false, t);
		return snprintf(buf, size, "%s", t);
	}
	return vmove_text(p->v, &m->x->m[ord], false, buf, size);
}

int bp_movenum(const bpos *before, int ply, bool first, char *buf, size_t size)
{
	int stm = bp_stm(before), root_stm = stm ^ (ply & 1);
	int opener = before->v ? before->v->first : PK_BLACK;
	return movenum_token_as(1 + (ply + (root_stm != opener)) / 2, stm == opener, first, buf, size);
}
