/* Transposition table: one slot per key, replaced by deeper or newer results. */
#include <stdlib.h>
#include <string.h>
#include "tt.h"

int tt_init(pk_tt *t, size_t megabytes)
{
	size_t n = 1;
	size_t want = megabytes * 1024 * 1024 / sizeof(tt_entry);
	while (n * 2 <= want)
		n *= 2;
	t->e = calloc(n, sizeof *t->e);
	if (!t->e)
		return -1;
	t->mask = n - 1;
	t->age = 0;
	return 0;
}

void tt_free(pk_tt *t)
{
	free(t->e);
	t->e = NULL;
}

void tt_clear(pk_tt *t)
{
	memset(t->e, 0, (t->mask + 1) * sizeof *t->e);
	t->age = 0;
}

tt_entry *tt_probe(pk_tt *t, uint64_t key)
{
	return &t->e[key & t->mask];
}

void tt_store(pk_tt *t, uint64_t key, int depth, int score, int bound, int move)
{
	tt_entry *e = &t->e[key & t->mask];
	/* Keep a deeper result of the current search for another position. */
	if (e->key != key && e->age == t->age && e->depth > depth)
		return;
	if (e->key == key && move < 0)
		move = e->move - 1;
	e->key = key;
	e->score = (int16_t)score;
	e->depth = (int8_t)(depth > 127 ? 127 : depth < -128 ? -128 : depth);
	e->bound = (uint8_t)bound;
	e->move = (uint8_t)(move >= 0 && move < 255 ? move + 1 : 0);
	e->age = t->age;
}
