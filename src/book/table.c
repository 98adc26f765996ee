/* Positions by key (open addressing) and the coding model, shared by the builder and
 * the reader. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book/book_int.h"

const uint8_t book_magic[8] = { 'P', 'D', 'N', 'B', 'O', 'O', 'K', 0 };

int bk_table_init(table *t, size_t want)
{
	size_t n = 1024;
	while (n < want * 2)
		n *= 2;
	t->slot = malloc(sizeof *t->slot * n);
	if (!t->slot)
		return -1;
	for (size_t i = 0; i < n; i++)
		t->slot[i].first = -2;    /* empty */
	t->mask = n - 1;
	t->count = 0;
	return 0;
}

void bk_table_free(table *t)
{
	free(t->slot);
	t->slot = NULL;
}

node *bk_table_find(const table *t, uint64_t key)
{
	for (size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;; i = (i + 1) & t->mask) {
		if (t->slot[i].first == -2)
			return NULL;
		if (t->slot[i].key == key)
			return &t->slot[i];
	}
}

static int bk_table_grow(table *t);

/* The node for key, created (first = -1, n = 0) when missing; NULL when out of memory. */
node *bk_table_get(table *t, uint64_t key, bool *created)
{
	if ((t->count + 1) * 2 > t->mask + 1 && bk_table_grow(t) < 0)
		return NULL;
	size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;
	for (;; i = (i + 1) & t->mask) {
		if (t->slot[i].first == -2)
			break;
		if (t->slot[i].key == key) {
			if (created)
				*created = false;
			return &t->slot[i];
		}
	}
	t->slot[i] = (node){ key, -1, 0 };
	t->count++;
	if (created)
		*created = true;
	return &t->slot[i];
}

static int bk_table_grow(table *t)
{
	table nt;
	if (bk_table_init(&nt, (t->mask + 1)) < 0)
		return -1;
	for (size_t i = 0; i <= t->mask; i++)
		if (t->slot[i].first != -2) {
			node *n = bk_table_get(&nt, t->slot[i].key, NULL);
			*n = t->slot[i];
		}
	free(t->slot);
	*t = nt;
	return 0;
}


void bk_model_init(model *m)
{
	rc_probs_init(&m->shape[0][0], sizeof m->shape / sizeof(rc_prob));
	rc_probs_init(&m->gap[0][0][0], sizeof m->gap / sizeof(rc_prob));
	rc_probs_init(&m->games[0][0], sizeof m->games / sizeof(rc_prob));
	rc_probs_init(m->unknown, RC_GAMMA_PROBS);
	rc_probs_init(&m->one[0][0], sizeof m->one / sizeof(rc_prob));
	rc_probs_init(m->bw, RC_GAMMA_PROBS);
	rc_probs_init(m->dr, RC_GAMMA_PROBS);
	rc_probs_init(m->score, RC_GAMMA_PROBS);
}

