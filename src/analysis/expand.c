/* Drop-out expansion: leaves in a binary heap by (priority, order made), positions
 * already in the tree in a hash set, so a step costs a logarithm, not a scan. */
#include <stdlib.h>
#include <string.h>
#include "analysis/expand.h"

typedef struct {
	pk_gpos pos;
	int ply;
	int cost;                    /* sum of the losses on its path */
	long priority;
	long seq;                    /* order made: ties go to the earliest */
} leaf;

typedef struct {
	leaf *heap;
	long n, cap, seq;
	uint64_t *keys;              /* open addressing; 0 is empty (a key of 0 is stored as 1) */
	size_t kcap, kn;
} tree;

static bool before(const leaf *a, const leaf *b)
{
	return a->priority != b->priority ? a->priority < b->priority : a->seq < b->seq;
}

static uint64_t slot_key(uint64_t k) { return k ? k : 1; }

/* Adds key; false when it was there already; -1 when out of memory. */
static int seen_add(tree *t, uint64_t key)
{
	if (2 * (t->kn + 1) > t->kcap) {
		size_t cap = t->kcap ? 2 * t->kcap : 1024;
		uint64_t *nk = calloc(cap, sizeof *nk);
		if (!nk)
			return -1;
		for (size_t i = 0; i < t->kcap; i++)
			if (t->keys[i]) {
				size_t j = t->keys[i] & (cap - 1);
				while (nk[j])
					j = (j + 1) & (cap - 1);
				nk[j] = t->keys[i];
			}
		free(t->keys);
		t->keys = nk;
		t->kcap = cap;
	}
	uint64_t k = slot_key(key);
	size_t j = k & (t->kcap - 1);
	while (t->keys[j]) {
		if (t->keys[j] == k)
			return 0;
		j = (j + 1) & (t->kcap - 1);
	}
	t->keys[j] = k;
	t->kn++;
	return 1;
}

static int push(tree *t, const pk_gpos *p, int ply, int cost, int dropout)
{
	if (t->n == t->cap) {
		long cap = t->cap ? 2 * t->cap : 256;
		leaf *nh = realloc(t->heap, sizeof *nh * (size_t)cap);
		if (!nh)
			return -1;
		t->heap = nh;
		t->cap = cap;
	}
	leaf x = { *p, ply, cost, (long)dropout * ply + cost, t->seq++ };
	long i = t->n++;
	while (i > 0 && before(&x, &t->heap[(i - 1) / 2])) {
		t->heap[i] = t->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	t->heap[i] = x;
	return 0;
}

static leaf pop(tree *t)
{
	leaf top = t->heap[0];
	leaf x = t->heap[--t->n];
	long i = 0;
	for (;;) {
		long c = 2 * i + 1;
		if (c >= t->n)
			break;
		if (c + 1 < t->n && before(&t->heap[c + 1], &t->heap[c]))
			c++;
		if (!before(&t->heap[c], &x))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (t->n > 0)
		t->heap[i] = x;
	return top;
}

long expand_book(pk_gengine *e, pk_bookb *b, const pk_gpos *root, const pk_expand_opts *o)
{
	tree t = { 0 };
	long searched = -1;
	int width = o->width < 1 ? 1 : o->width > EXPAND_MAX_WIDTH ? EXPAND_MAX_WIDTH : o->width;
	pk_gmove *ml = malloc(sizeof *ml * VAR_MAX_MOVES);
	if (!ml)
		goto out;
	if (o->nstarts > 0) {
		for (int i = 0; i < o->nstarts; i++) {
			int fresh = seen_add(&t, gpos_key(&o->starts[i]));
			if (fresh < 0 || (fresh && push(&t, &o->starts[i], 0, 0, o->dropout) < 0))
				goto out;
		}
	} else if (seen_add(&t, gpos_key(root)) < 0 || push(&t, root, 0, 0, o->dropout) < 0) {
		goto out;
	}
	searched = 0;
	while (searched < o->positions && t.n > 0 && !(o->stop && *o->stop)) {
		leaf nd = pop(&t);
		int n = gpos_gen(&nd.pos, ml, VAR_MAX_MOVES);
		if (n < 0)
			goto fail;
		if (n == 0)
			continue;
		/* the best moves, one search each with the ones found left out */
		pk_gmove found[EXPAND_MAX_WIDTH];
		int scores[EXPAND_MAX_WIDTH], k = 0;
		for (; k < width && k < n; k++) {
			pk_gresult r;
			if (o->search) {
				if (o->search(o->sctx, &nd.pos, found, k, &r) < 0) {
					searched = -2;
					goto out;
				}
			} else {
				gengine_new_game(e);
				if (gengine_search(e, &nd.pos, NULL, &o->lim, found, k, NULL, NULL, NULL, &r) < 0)
					goto fail;
			}
			if (!r.has_move)
				break;
			int s = r.forced ? 0 : r.last.score;
			if (k > 0 && s < scores[0] - o->margin)
				break;
			found[k] = r.best;
			scores[k] = s;
			if (n == 1) {
				k++;
				break;
			}
		}
		searched++;
		/* a move found later may score above the first (the searches differ in what
		 * they leave out): the losses are from the best of them, never below 0 */
		int best = k > 0 ? scores[0] : 0;
		for (int j = 1; j < k; j++)
			if (scores[j] > best)
				best = scores[j];
		for (int j = 0; j < k; j++) {
			int ord = 0;
			while (ord < n && !gmove_same(&nd.pos, &ml[ord], &found[j]))
				ord++;
			if (ord == n)
				continue;
			if (bookb_add_gmove(b, &nd.pos, ord, n == 1 ? BOOK_NO_SCORE : scores[j]) < 0)
				goto fail;
			pk_gpos c;
			gpos_make(&nd.pos, &found[j], &c);
			int fresh = seen_add(&t, gpos_key(&c));
			if (fresh < 0 || (fresh && push(&t, &c, nd.ply + 1, nd.cost + best - scores[j], o->dropout) < 0))
				goto fail;
		}
		if (o->on_step) {
			pk_expand_step st = { searched, nd.ply, nd.priority, &nd.pos, k, found, scores };
			o->on_step(o->ctx, &st);
		}
	}
	goto out;
fail:
	searched = -1;
out:
	free(ml);
	free(t.heap);
	free(t.keys);
	return searched;
}
